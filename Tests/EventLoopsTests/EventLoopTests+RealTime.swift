import Foundation
@testable import EventLoops
import Synchronization
import Testing
import TestSupport

/// The event loop's real-time path: deadlines on the wall clock kept by the kernel's timerfd (epoll's
/// timeout elsewhere). The kernel's timers are the thing under test here, so these run on real time; the
/// loop's ordering, budget, cancellation and wake-ups are tested on a stepped clock in EventLoopTests.
// A minute is far above the 30 ms of timers these wait for, however loaded the machine: a loop whose timer
// never woke it would otherwise hang the phase.
@Suite(.tags(.peer), .timeLimit(.minutes(1))) struct EventLoopRealTimeTests {
    @Test func timersFireInDeadlineOrderAndNeverEarly() async throws {
        let loop = try EventLoop(label: "test-timers-real", clock: .real)
        defer { loop.shutdown() }
        let probe = LoopProbe()
        let start = ContinuousClock.now
        let offsets: [Duration] = [.milliseconds(30), .milliseconds(5), .microseconds(2_500), .milliseconds(12), .milliseconds(5)]
        let early = Mutex<[String]>([])
        for (index, offset) in offsets.enumerated() {
            let deadline = start + offset
            loop.schedule(at: deadline) {
                if ContinuousClock.now < deadline { early.withLock { $0.append("\(index)") } }
                probe.note("\(index)")
            }
        }
        await probe.pass(start + .milliseconds(30), on: loop)
        // Deadline order; the two at 5 ms in the order they were scheduled.
        #expect(probe.events == ["2", "1", "4", "3", "0"])
        #expect(early.withLock { $0 }.isEmpty, "fired before their deadlines: \(early.withLock { $0 })")
    }

    @Test func aNewEarlierTimerShortensTheLoopsSleep() async throws {
        let loop = try EventLoop(label: "test-earlier-real", clock: .real)
        defer { loop.shutdown() }
        let probe = LoopProbe()
        let start = ContinuousClock.now
        loop.schedule(at: start + .seconds(60)) { probe.note("late") }
        await probe.settle(loop)  // now asleep until the 60 s timer
        await probe.pass(start + .milliseconds(5), on: loop)
        let elapsed = start.duration(to: .now)
        #expect(probe.events.isEmpty)
        // Half the 60 s the loop would have slept had the earlier timer not re-armed its wait: a loaded 2-core
        // machine delays a 5 ms timer by milliseconds to a second, never by tens of seconds.
        #expect(elapsed < .seconds(30), "the 5 ms timer fired after \(elapsed)")
    }
}
