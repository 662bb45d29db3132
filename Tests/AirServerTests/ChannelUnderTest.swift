@testable import SocketServing
import TestSupport
@testable import HCITransports
@testable import AirServer
import Foundation
import EventLoops
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `LineChannel` on one end of a Unix socket pair, a test's blocking socket on the other: the channel
/// answers each line `ok LINE`, counts its answers, and keeps why it ended, both awaitable.
final class ChannelUnderTest: Sendable {
    let channel: LineChannel
    /// The test's end (blocking; closed by `close()`).
    let client: Int32
    let answers = AwaitableCount()
    private let end = Mutex<LineChannel.End?>(nil)
    private let endWaiters = Mutex<[CheckedContinuation<LineChannel.End, Never>]>([])

    init(_ name: String, limits: ControlLimits, clock: LoopClock) throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw ServeError("socketpair: \(POSIX.describe(errno))") }
        client = fds[1]
        channel = try LineChannel(name: name, input: fds[0], output: fds[0], isSocket: true, limits: limits, clock: clock)
        channel.start(answer: { [answers] line in
            answers.increment()
            return "ok \(line)"
        }, onEnd: { [self] end in ended(end) })
    }

    /// Sends `text` as it is; false when the channel has gone.
    @discardableResult
    func send(_ text: String) -> Bool { BlockingSocket.write(client, Array(text.utf8)) }

    /// Why the channel ended, once it has.
    func ended() async -> LineChannel.End {
        await withCheckedContinuation { continuation in
            let known = end.withLock { end -> LineChannel.End? in
                if end == nil { endWaiters.withLock { $0.append(continuation) } }
                return end
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Why it ended, if it has by now.
    var endedYet: LineChannel.End? { end.withLock { $0 } }

    func close() { _ = SocketOptions.closeDescriptor(client) }

    private func ended(_ reason: LineChannel.End) {
        let waiters = end.withLock { end -> [CheckedContinuation<LineChannel.End, Never>] in
            end = reason
            return endWaiters.withLock { waiters in
                defer { waiters = [] }
                return waiters
            }
        }
        for waiter in waiters { waiter.resume(returning: reason) }
    }
}

/// A count that a test awaits reaching a value.
final class AwaitableCount: Sendable {
    private let state = Mutex<(count: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

    var value: Int { state.withLock { $0.count } }

    func increment() {
        let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let due = state.waiters.filter { $0.0 <= count }.map(\.1)
            state.waiters.removeAll { $0.0 <= count }
            return due
        }
        for waiter in due { waiter.resume() }
    }

    /// Returns once the count is at least `target`.
    func reach(_ target: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                guard state.count < target else { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
