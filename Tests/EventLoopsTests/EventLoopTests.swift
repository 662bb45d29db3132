import Foundation
@testable import EventLoops
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The event loop itself: the order work runs in, timers at their deadlines, cancellation, wake-ups from
/// other threads, a descriptor watched and unwatched, and a timer that a busy queue cannot starve.
///
/// The loops run on a stepped clock, which moves only when a test advances it: a timer fires at exactly its
/// deadline, never early, however loaded the machine. The real-time path (the kernel's timerfd) is tested in
/// EventLoopRealTimeTests.
@Suite struct EventLoopTests {
    @Test func workRunsInTheOrderItWasEnqueuedAcrossBudgets() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-fifo", clock: time.clock)
            defer { loop.shutdown() }
            let probe = LoopProbe()
            let count = EventLoop.workBudget * 5 + 3
            for index in 0..<count { loop.execute { probe.note("\(index)") } }
            await probe.settle(loop)
            #expect(probe.events == (0..<count).map(String.init))
        }
    }

    @Test func workEnqueuedFromTheLoopRunsAfterWhatWasAlreadyQueued() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-fifo-inner", clock: time.clock)
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
    }

    @Test func jobsOfATaskOnTheLoopRunOnItsThread() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-jobs", clock: time.clock)
            defer { loop.shutdown() }
            let onLoop = await Task(executorPreference: loop) { loop.inLoop }.value
            #expect(onLoop)
            #expect(!loop.inLoop)
        }
    }

    @Test func timersFireInDeadlineOrderAndNeverEarly() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-timers", clock: time.clock)
            defer { loop.shutdown() }
            let fired = Firings()
            let start = time.now
            let offsets: [Duration] = [.milliseconds(30), .milliseconds(5), .microseconds(2_500), .milliseconds(12), .milliseconds(5)]
            for (index, offset) in offsets.enumerated() {
                let deadline = start + offset
                loop.schedule(at: deadline) { fired.append("\(index)", late: deadline.duration(to: time.now)) }
            }
            #expect(await time.nextDeadline() == start + .microseconds(2_500))
            // Through each deadline in turn: one nanosecond before it none of its timers has fired, at it all have.
            for offset in Set(offsets).sorted() {
                let due = offsets.filter { $0 <= offset }.count
                await time.advance(to: start + offset - .nanoseconds(1))
                #expect(fired.all.count == offsets.filter { $0 < offset }.count, "fired before \(offset): \(fired.all)")
                await time.advance(to: start + offset)
                #expect(fired.all.count == due, "not fired at \(offset): \(fired.all)")
            }
            // Deadline order; the two at 5 ms in the order they were scheduled; each at its deadline exactly.
            #expect(fired.all.map(\.name) == ["2", "1", "4", "3", "0"])
            #expect(fired.all.allSatisfy { $0.late == .zero }, "fired away from their deadlines: \(fired.all)")
        }
    }

    @Test func aCancelledTimerNeverFires() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-cancel", clock: time.clock)
            defer { loop.shutdown() }
            let probe = LoopProbe()
            let start = time.now
            let cancelled = loop.schedule(at: start + .milliseconds(5)) { probe.note("cancelled") }
            loop.schedule(at: start + .milliseconds(5)) { probe.note("kept") }
            loop.cancelTimer(cancelled)
            loop.cancelTimer(cancelled)  // twice: ignored
            await time.advance(to: start + .milliseconds(5))
            #expect(probe.events == ["kept"])
            // Long past its deadline, still nothing.
            await time.advance(to: start + .seconds(60))
            #expect(probe.events == ["kept"])
        }
    }

    @Test func workFromAnotherThreadWakesALoopWithNothingToDo() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-wake", clock: time.clock)
            defer { loop.shutdown() }
            let probe = LoopProbe()
            await probe.settle(loop)
            await time.settle()  // the loop is now blocked with no timer
            let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Thread.detachNewThread {
                    loop.execute { continuation.resume(returning: loop.inLoop) }
                }
            }
            #expect(ran)
        }
    }

    @Test func aNewEarlierTimerShortensTheLoopsSleep() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-earlier", clock: time.clock)
            defer { loop.shutdown() }
            let probe = LoopProbe()
            let start = time.now
            loop.schedule(at: start + .seconds(60)) { probe.note("late") }
            // Now asleep until the 60 s timer.
            #expect(await time.nextDeadline() == start + .seconds(60))
            // A timer scheduled from another thread wakes it, and it sleeps only until the new one.
            loop.schedule(at: start + .milliseconds(5)) { probe.note("early") }
            #expect(await time.nextDeadline() == start + .milliseconds(5))
            await time.advance(to: start + .milliseconds(5))
            #expect(probe.events == ["early"])
        }
    }

    @Test func aBusyQueueCannotStarveATimer() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-starve", clock: time.clock)
            defer { loop.shutdown() }
            let spins = Atomic<Int>(0)
            let stop = Atomic<Bool>(false)
            @Sendable func spin() {
                spins.add(1, ordering: .relaxed)
                if !stop.load(ordering: .relaxed) { loop.execute(spin) }
            }
            let deadline = time.now + .milliseconds(5)
            async let fired = withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                // Scheduled from the loop as the spinning begins; the spinning re-enqueues itself until the timer fires.
                loop.execute {
                    loop.schedule(at: deadline) {
                        let count = spins.load(ordering: .relaxed)
                        stop.store(true, ordering: .relaxed)
                        continuation.resume(returning: count)
                    }
                    spin()
                }
            }
            // The clock reaches the deadline while the queue is never empty; the advance returns once the timer
            // has fired (ending the spinning) and the loop is idle again.
            await time.advance(to: deadline)
            let spinsWhenFired = await fired
            // The closure was still re-enqueueing itself when the timer fired: the timer was not starved. It fired
            // between two budgets of work (the closure and its spins run `workBudget` items a turn).
            #expect(spinsWhenFired > 0)
            #expect(spinsWhenFired % EventLoop.workBudget == 0, "fired after \(spinsWhenFired) spins")
            #expect(!stop.load(ordering: .relaxed) || spins.load(ordering: .relaxed) >= spinsWhenFired)
        }
    }

    @Test func aWatchedDescriptorIsReadUntilUnwatchedAndAReusedNumberIsWatchedAnew() async throws {
        try await withSteppedTime { time in
            let loop = try EventLoop(label: "test-watch", clock: time.clock)
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
            await probe.turn(loop)
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
            await probe.turn(loop)
            #expect(probe.events == ["first 1", "second 1"])

            loop.unwatch()
            await probe.settle(loop)
            _ = write(second[1], &byte, 1)
            // A whole turn of the loop, its descriptor polled after the write: nothing read.
            await probe.turn(loop)
            #expect(probe.events == ["first 1", "second 1"], "read after unwatch")
        }
    }
}
