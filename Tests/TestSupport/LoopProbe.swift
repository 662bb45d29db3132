import Foundation
@testable import EventLoops
import Synchronization

/// What a test saw happen on an event loop, in order, and ways to await the loop's own thread: `settle`
/// runs a closure on the loop and returns once it ran, so everything queued before it has run too; `turn`
/// returns once the loop has looked at its descriptor since the call began.
public final class LoopProbe: Sendable {
    private let seen = Mutex<[String]>([])

    public init() {}

    public var events: [String] { seen.withLock { $0 } }

    public func note(_ event: String) { seen.withLock { $0.append(event) } }

    /// Waits for a closure enqueued now to run on `loop`: the loop's queue up to here has drained.
    public func settle(_ loop: EventLoop) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { continuation.resume() }
        }
    }

    /// Waits on `loop` until `deadline` has passed on the loop's clock: a timer at that deadline fired.
    public func pass(_ deadline: ContinuousClock.Instant, on loop: EventLoop) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.schedule(at: deadline) { continuation.resume() }
        }
    }

    /// Waits until `loop` has polled its watched descriptor, and run what it found ready, at least once after
    /// this call began. A loop turn runs its work, polls, hands the descriptor's readiness to the watch, then
    /// fires the timers due: a timer due at once fires at the end of some turn, and a second one scheduled when
    /// the first fired can only fire at the end of a later turn, whose poll came after this call began.
    public func turn(_ loop: EventLoop) async {
        await pass(loop.now, on: loop)
        await pass(loop.now, on: loop)
    }
}
