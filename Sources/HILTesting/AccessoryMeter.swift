import EventLoops
import PowerMeters
import Simulation

/// What measures a rig accessory's supply current while a case runs (the rig's `meters` entry its
/// `meter` names): the figures of any window of the bench's clock. A simulated meter integrates the
/// accessory's current model exactly; a real meter's sample stream lags the clock, so asking for a window
/// may wait — boundedly — for its samples to pass the window's end.
package protocol AccessoryMeter: Sendable {
    /// The rig's name for it.
    var name: String { get }
    /// The average current, charge and energy of [`start`, `end`) on the bench's clock; throws, saying what
    /// was awaited and for how long, when the meter cannot give them.
    func figures(from start: LoopClock.Instant, to end: LoopClock.Instant) async throws -> CurrentFigures
}

extension SimulatedMeter: AccessoryMeter {
    package func figures(from start: LoopClock.Instant, to end: LoopClock.Instant) async throws -> CurrentFigures {
        trace.figures(from: start, to: end, supplyVolts: supplyVolts)
    }
}
