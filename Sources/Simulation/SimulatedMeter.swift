import EventLoops
import PowerMeters

/// A simulated power meter on a simulated accessory's supply: it reads the accessory's charge trace on the
/// world's clock and gives the figures of any window (`CurrentFigures`). It integrates each window exactly
/// (`SimulatedChargeTrace`) instead of sampling: exact figures, equal between two virtual-time runs of a seed.
package struct SimulatedMeter: Sendable {
    /// The rig's name for it.
    package let name: String
    /// The supply voltage charge becomes energy at.
    package let supplyVolts: Double
    package let trace: SimulatedChargeTrace
    /// The world's clock, the one windows are measured on.
    package var clock: LoopClock { trace.clock }

    package init(name: String, supplyVolts: Double, trace: SimulatedChargeTrace) {
        (self.name, self.supplyVolts, self.trace) = (name, supplyVolts, trace)
    }

    /// The figures of [`start`, `end`) on the world's clock.
    package func figures(from start: LoopClock.Instant, to end: LoopClock.Instant) -> CurrentFigures {
        trace.figures(from: start, to: end, supplyVolts: supplyVolts)
    }
}
