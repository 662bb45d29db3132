import Foundation
@testable import HCI
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The event loop itself: the order work runs in, timers at their deadlines, cancellation, wake-ups from
/// other threads, a descriptor watched and unwatched, and a timer that a busy queue cannot starve.
@Suite(.timeLimit(.minutes(1))) struct EventLoopTests {
    @Test func workRunsInTheOrderItWasEnqueuedAcrossBudgets() async throws {
        let loop = try EventLoop(label: "test-fifo")
        defer { loop.shutdown() }
        let probe = LoopProbe()
        let count = EventLoop.workBudget * 5 + 3
        for index in 0..<count { loop.execute { probe.note("\(index)") } }
        await probe.settle(loop)
        #expect(probe.events == (0..<count).map(String.init))
    }

    @Test func workEnqueuedFromTheLoopRunsAfterWhatWasAlreadyQueued() async throws {
        let loop = try EventLoop(label: "test-fifo-inner")
        defer { loop.shutdown() }
        let probe = LoopProbe()
        // Hold the loop until both are queued, so that "b" is queued before "a" runs.
        let gate = DispatchSemaphore(value: 0)
        loop.execute { gate.wait() }
        loop.execute {
            probe.note("a")
            loop.execute { probe.note("c") }
        }
        loop.execute { probe.note("b") }
        gate.signal()
        await probe.settle(loop)
        #expect(probe.events == ["a", "b", "c"])
    }

    @Test func jobsOfATaskOnTheLoopRunOnItsThread() async throws {
        let loop = try EventLoop(label: "test-jobs")
        defer { loop.shutdown() }
        let onLoop = await Task(executorPreference: loop) { loop.inLoop }.value
        #expect(onLoop)
        #expect(!loop.inLoop)
    }

    @Test func timersFireInDeadlineOrderAndNeverEarly() async throws {
        let loop = try EventLoop(label: "test-timers")
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

    @Test func aCancelledTimerNeverFires() async throws {
        let loop = try EventLoop(label: "test-cancel")
        defer { loop.shutdown() }
        let probe = LoopProbe()
        let start = ContinuousClock.now
        let cancelled = loop.schedule(at: start + .milliseconds(5)) { probe.note("cancelled") }
        loop.schedule(at: start + .milliseconds(5)) { probe.note("kept") }
        loop.cancelTimer(cancelled)
        loop.cancelTimer(cancelled)  // twice: ignored
        await probe.pass(start + .milliseconds(20), on: loop)
        #expect(probe.events == ["kept"])
    }

    @Test func workFromAnotherThreadWakesALoopWithNothingToDo() async throws {
        let loop = try EventLoop(label: "test-wake")
        defer { loop.shutdown() }
        let probe = LoopProbe()
        await probe.settle(loop)  // the loop is now blocked with no timer
        let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread {
                loop.execute { continuation.resume(returning: loop.inLoop) }
            }
        }
        #expect(ran)
    }

    @Test func aNewEarlierTimerShortensTheLoopsSleep() async throws {
        let loop = try EventLoop(label: "test-earlier")
        defer { loop.shutdown() }
        let probe = LoopProbe()
        let start = ContinuousClock.now
        loop.schedule(at: start + .seconds(60)) { probe.note("late") }
        await probe.settle(loop)  // now asleep until the 60 s timer
        await probe.pass(start + .milliseconds(5), on: loop)
        #expect(probe.events.isEmpty)
    }

    @Test func aBusyQueueCannotStarveATimer() async throws {
        let loop = try EventLoop(label: "test-starve")
        defer { loop.shutdown() }
        let spins = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        @Sendable func spin() {
            spins.add(1, ordering: .relaxed)
            if !stop.load(ordering: .relaxed) { loop.execute(spin) }
        }
        let spinsWhenFired = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            // Scheduled from the loop as the spinning begins (so a loaded machine cannot fire it before).
            loop.execute {
                loop.schedule(at: ContinuousClock.now + .milliseconds(5)) {
                    let count = spins.load(ordering: .relaxed)
                    stop.store(true, ordering: .relaxed)
                    continuation.resume(returning: count)
                }
                spin()
            }
        }
        // The closure was still re-enqueueing itself when the timer fired: the timer was not starved.
        #expect(spinsWhenFired > 0)
        #expect(!stop.load(ordering: .relaxed) || spins.load(ordering: .relaxed) >= spinsWhenFired)
    }

    @Test func aWatchedDescriptorIsReadUntilUnwatchedAndAReusedNumberIsWatchedAnew() async throws {
        let loop = try EventLoop(label: "test-watch")
        defer { loop.shutdown() }
        let probe = LoopProbe()
        var first: [Int32] = [-1, -1]
        #expect(pipe(&first) == 0)
        @Sendable func reader(_ fd: Int32, _ name: String) -> @Sendable () -> Void {
            {
                var buffer = [UInt8](repeating: 0, count: 16)
                let count = read(fd, &buffer, buffer.count)
                if count > 0 { probe.note("\(name) \(count)") }
            }
        }
        loop.watch(fd: first[0], onReadable: reader(first[0], "first"))
        await probe.settle(loop)
        var byte: UInt8 = 1
        _ = write(first[1], &byte, 1)
        await probe.pass(.now + .milliseconds(20), on: loop)
        #expect(probe.events == ["first 1"])

        // The same descriptor number, now another pipe (dup2 replaces it in place, as a transport reopened
        // on a reused number would): watching it again must register the new file, not keep the old one.
        var second: [Int32] = [-1, -1]
        #expect(pipe(&second) == 0)
        #expect(dup2(second[0], first[0]) == first[0])
        close(second[0])
        defer { close(first[0]); close(first[1]); close(second[1]) }
        loop.watch(fd: first[0], onReadable: reader(first[0], "second"))
        await probe.settle(loop)
        _ = write(second[1], &byte, 1)
        await probe.pass(.now + .milliseconds(20), on: loop)
        #expect(probe.events == ["first 1", "second 1"])

        loop.unwatch()
        await probe.settle(loop)
        _ = write(second[1], &byte, 1)
        await probe.pass(.now + .milliseconds(20), on: loop)
        #expect(probe.events == ["first 1", "second 1"], "read after unwatch")
    }
}
