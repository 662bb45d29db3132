import Foundation
@testable import EventLoops
import SeededRandom
import Synchronization
import Testing

/// Virtual time: during a drive it stands still while anything computes and jumps to the next deadline
/// when every loop waits; timers fire at their deadlines exactly, in order. How it relates to real time
/// (a 10 s timer at once, time flowing outside a drive) is tested in VirtualTimeRealTimeTests.
@Suite struct VirtualTimeTests {
    @Test func timersOnSeveralLoopsFireInDeadlineOrderEachAtItsDeadline() async throws {
        let time = VirtualTime()
        defer { time.shutdown() }
        let loops = try (0..<3).map { try EventLoop(label: "test-virtual-\($0)", clock: time.clock) }
        defer { for loop in loops { loop.shutdown() } }
        let fired = Firings()
        let plan: [(loop: Int, after: Duration)] = [(0, .milliseconds(300)), (1, .milliseconds(100)), (2, .milliseconds(200)),
                                                   (0, .milliseconds(50)), (1, .seconds(2))]
        await time.drive {
            // Read inside the drive: outside one the clock flows at the rate of real time, and a loaded machine
            // could start the drive after the earliest deadline.
            let start = time.now
            await withTaskGroup(of: Void.self) { group in
                for (index, entry) in plan.enumerated() {
                    group.addTask {
                        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                            let deadline = start + entry.after
                            loops[entry.loop].schedule(at: deadline) {
                                fired.append("\(index)", late: deadline.duration(to: time.now))
                                continuation.resume()
                            }
                        }
                    }
                }
            }
        }
        let order = fired.all
        #expect(order.map(\.name) == ["3", "1", "2", "0", "4"])
        #expect(order.allSatisfy { $0.late == .zero }, "fired away from their deadlines: \(order)")
    }

    @Test func timeStandsStillWhileTheDriveComputes() async throws {
        let time = VirtualTime()
        defer { time.shutdown() }
        let loop = try EventLoop(label: "test-virtual-busy", clock: time.clock)
        defer { loop.shutdown() }
        // A timer is pending, so time would have somewhere to jump to (far enough ahead that it is still pending
        // when the drive begins, as time flows at the rate of real time until then).
        loop.schedule(at: time.now + .seconds(60)) {}
        let (elapsed, checksum) = await time.drive { () async -> (Duration, UInt64) in
            let before = time.now
            // Computation that takes real time (milliseconds, more on a loaded machine), counted in work, not in
            // time: were virtual time to flow with real time during a drive, it would have moved by then.
            var random = SplitMix64(seed: 7)
            var checksum: UInt64 = 0
            for _ in 0..<500_000 { checksum &+= random.next() }
            return (before.duration(to: time.now), checksum)
        }
        #expect(checksum != 0)
        #expect(elapsed == .zero, "virtual time moved \(elapsed) while the drive computed")
    }

    @Test func sleepingOnTheClockTakesExactlyItsDurationAndCancellationEndsIt() async throws {
        let time = VirtualTime()
        defer { time.shutdown() }
        let clock = time.clock
        // Durations named apart from the call: scripts/checks/test-kinds looks for `clock:` before the first `)`.
        let (threeSeconds, anHour) = (Duration.seconds(3), Duration.seconds(3600))
        let slept = try await clock.drive { () async throws -> Duration in
            let before = clock.now
            try await Task.sleep(for: threeSeconds, clock: clock)
            return before.duration(to: clock.now)
        }
        #expect(slept == .seconds(3))
        // Cancelled: the sleep ends at once with CancellationError.
        let sleeper = Task { try await Task.sleep(for: anHour, clock: clock) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func aSleepAfterShutdownThrowsInsteadOfStartingALoopNobodyEnds() async throws {
        let time = VirtualTime.stepped()
        let clock = time.clock
        let start = clock.now
        let first = Task { try await Task.sleep(for: .milliseconds(10), clock: clock) }
        #expect(await time.nextDeadline() == start + .milliseconds(10))
        await time.advance(by: .milliseconds(10))
        try await first.value
        time.shutdown()
        await #expect(throws: EventLoopError.self) { try await Task.sleep(for: .milliseconds(10), clock: clock) }
    }
}

/// A stepped clock: it moves only when the test advances it, whatever the loops and the test do, and an
/// advance returns once the timers due by then have fired.
@Suite struct SteppedVirtualTimeTests {
    @Test func timeStandsStillUntilAdvancedThenTheDueTimersHaveFiredWhenAdvanceReturns() async throws {
        let time = VirtualTime.stepped()
        let loop = try EventLoop(label: "test-stepped", clock: time.clock)
        defer { loop.shutdown() }
        let fired = Firings()
        let start = time.now
        for (name, after) in [("b", Duration.milliseconds(150)), ("a", .milliseconds(100)), ("c", .seconds(30))] {
            let deadline = start + after
            loop.schedule(at: deadline) { fired.append(name, late: deadline.duration(to: time.now)) }
        }
        // The loop waits with deadlines pending and the test does nothing: a stepped clock does not jump.
        #expect(await time.nextDeadline() == start + .milliseconds(100))
        #expect(time.now == start)
        #expect(fired.all.isEmpty)
        await time.advance(by: .milliseconds(100) - .nanoseconds(1))
        #expect(fired.all.isEmpty, "fired before its deadline: \(fired.all)")
        await time.advance(by: .nanoseconds(1))
        #expect(fired.all.map(\.name) == ["a"])
        await time.advance(to: start + .milliseconds(150))
        #expect(fired.all.map(\.name) == ["a", "b"])
        #expect(fired.all.allSatisfy { $0.late == .zero }, "fired away from their deadlines: \(fired.all)")
        // Past a deadline in one step: the timer fires at the instant the clock was moved to.
        await time.advance(to: start + .seconds(60))
        #expect(fired.all.map(\.name) == ["a", "b", "c"])
        #expect(fired.all.last?.late == .seconds(30))
        #expect(time.now == start + .seconds(60))
    }

    @Test func aDriveOnASteppedClockDoesNotJumpAndSleepsEndWhenAdvancedPast() async throws {
        let time = VirtualTime.stepped()
        defer { time.shutdown() }
        let clock = time.clock
        let start = clock.now
        let threeSeconds = Duration.seconds(3)  // named apart: scripts/checks/test-kinds looks for `clock:` before the first `)`
        let sleeper = Task { () async throws -> Duration in
            try await clock.drive { () async throws -> Duration in
                try await Task.sleep(for: threeSeconds, clock: clock)
                return start.duration(to: clock.now)
            }
        }
        // The sleep has armed its deadline, 3 s from when it began, before the test moves the clock.
        #expect(await time.nextDeadline() == start + .seconds(3))
        await time.advance(by: .seconds(2))
        await time.advance(by: .seconds(2))
        #expect(try await sleeper.value == .seconds(4), "the sleep ended when the clock passed its deadline")
        // Advancing never goes back.
        await time.advance(to: start)
        #expect(clock.now == start + .seconds(4))
    }

    @Test func workFromAnotherThreadRunsWithoutMovingTheClock() async throws {
        let time = VirtualTime.stepped()
        let loop = try EventLoop(label: "test-stepped-work", clock: time.clock)
        defer { loop.shutdown() }
        let start = time.now
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<ContinuousClock.Instant, Never>) in
            Thread { loop.execute { continuation.resume(returning: time.now) } }.start()
        }
        #expect(seen == start)
    }
}

/// Timers that fired, with how far from their deadlines, from any thread.
final class Firings: Sendable {
    private let state = Mutex<[(name: String, late: Duration)]>([])
    var all: [(name: String, late: Duration)] { state.withLock { $0 } }
    func append(_ name: String, late: Duration) { state.withLock { $0.append((name, late)) } }
}
