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
    /// The trace of [`start`, `end`) in bins of `binSeconds` (each bin's mean current), for the CSV beside the
    /// capture and the report's plot. The default asks `figures` for each bin, which suits any meter that keeps
    /// its samples for the case; a meter that can do better (one pass) implements it.
    func trace(from start: LoopClock.Instant, to end: LoopClock.Instant, binSeconds: Double) async throws -> CurrentTrace
}

extension AccessoryMeter {
    package func trace(from start: LoopClock.Instant, to end: LoopClock.Instant, binSeconds: Double) async throws -> CurrentTrace {
        let width = Duration.seconds(binSeconds)
        var microamperes: [Double] = []
        var binStart = start
        while binStart < end {
            let figures = try await self.figures(from: binStart, to: binStart.advanced(by: width))
            microamperes.append(figures.chargeMicrocoulombs / binSeconds)
            binStart = binStart.advanced(by: width)
        }
        return CurrentTrace(binSeconds: binSeconds, microamperes: microamperes)
    }
}

extension SimulatedMeter: AccessoryMeter {
    package func figures(from start: LoopClock.Instant, to end: LoopClock.Instant) async throws -> CurrentFigures {
        trace.figures(from: start, to: end, supplyVolts: supplyVolts)
    }

    package func trace(from start: LoopClock.Instant, to end: LoopClock.Instant, binSeconds: Double) async throws -> CurrentTrace {
        trace.bins(from: start, to: end, binSeconds: binSeconds)
    }
}
