import Foundation
import EventLoops

/// Stamps capture records on a transport's or a bench's clock: the wall clock at creation (µs since
/// 1970, rounded once) plus the clock's elapsed time in integers — so a simulated bench's virtual time maps
/// onto the wall clock from that moment, and a replayed bench stamps its records at exactly the same offsets.
public struct CaptureClock: Sendable {
    public let clock: LoopClock
    private let originMicros: Int64
    private let originInstant: ContinuousClock.Instant

    public init(_ clock: LoopClock) {
        self.clock = clock
        originMicros = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        originInstant = clock.now
    }

    /// Now, in whole microseconds since 1970.
    public var now: Int64 {
        let elapsed = originInstant.duration(to: clock.now).components
        return originMicros + elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
    }
}
