import Foundation
import EventLoops
import Synchronization

/// Lines a server logged, each with the instant of the air's clock it was logged at (once the clock is
/// known), and awaitable: `line(where:)` returns when such a line has been logged.
public final class LogLines: Sendable {
    public struct Line: Sendable {
        public let text: String
        public let at: ContinuousClock.Instant?
    }

    private struct State {
        var lines: [Line] = []
        var clock: LoopClock?
        /// Who waits for the next line: woken, they look again.
        var waiters: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// Stamps the lines logged from now on with `clock`'s instants.
    public func stamp(on clock: LoopClock) { state.withLock { $0.clock = clock } }

    public func append(_ text: String) {
        let waiters = state.withLock { state in
            state.lines.append(Line(text: text, at: state.clock?.now))
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter() }
    }

    public var all: [String] { state.withLock { $0.lines.map(\.text) } }

    /// The first line logged that satisfies `predicate`, once there is one (waiting for it as long as it
    /// takes: the server logs it, or the test is wrong and the run's phase limit ends it).
    public func line(where predicate: @Sendable (String) -> Bool) async -> Line {
        while true {
            let found = await withCheckedContinuation { (continuation: CheckedContinuation<Line?, Never>) in
                let found = state.withLock { state -> Line? in
                    if let line = state.lines.first(where: { predicate($0.text) }) { return line }
                    state.waiters.append { continuation.resume(returning: nil) }
                    return nil
                }
                if let found { continuation.resume(returning: found) }
            }
            if let found { return found }
        }
    }

    /// The first `count` lines logged that satisfy `predicate`, once there are that many (waiting as
    /// `line(where:)` does).
    public func lines(where predicate: @Sendable (String) -> Bool, count: Int) async -> [Line] {
        while true {
            let found = await withCheckedContinuation { (continuation: CheckedContinuation<[Line]?, Never>) in
                let found = state.withLock { state -> [Line]? in
                    let matching = state.lines.filter { predicate($0.text) }
                    if matching.count >= count { return Array(matching.prefix(count)) }
                    state.waiters.append { continuation.resume(returning: nil) }
                    return nil
                }
                if let found { continuation.resume(returning: found) }
            }
            if let found { return found }
        }
    }

    /// The server's `log`: appends here (and, with HIL_TEST_SERVE_LOG=1, prints each line on standard error
    /// to diagnose a failure in a stress loop).
    public func logger(echoing tag: String) -> @Sendable (String) -> Void {
        let echo = ProcessInfo.processInfo.environment["HIL_TEST_SERVE_LOG"] == "1"
        return { [self] line in
            append(line)
            if echo { FileHandle.standardError.write(Data("[\(tag)] \(line)\n".utf8)) }
        }
    }
}
