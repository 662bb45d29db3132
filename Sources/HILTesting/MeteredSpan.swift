import EventLoops
import HILResults

/// A span of a case's timeline marked with a duration, on the bench's clock: what the accessory's meter
/// measures when the case ends (`TransitionEnergy`).
struct MeteredSpan: Sendable {
    var lane: TimelineEvent.Lane
    var label: String
    /// Seconds from the case's start to the span's start, as the timeline gives it.
    var offset: Double
    var start: LoopClock.Instant
    var end: LoopClock.Instant
    /// Its length in seconds.
    var seconds: Double { (end - start) / .seconds(1) }
}
