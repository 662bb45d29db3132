import Foundation
@testable import EventLoops
import Testing
import TestSupport

/// Virtual time against real time: during a drive a long timer costs no real time, and outside a drive
/// virtual time flows at the rate of real time. Real time is the thing measured, so these read the wall
/// clock; everything else about virtual time is tested on its own clocks in VirtualTimeTests.
// A minute is far above the 100 ms of real time these take, however loaded the machine: a virtual clock that
// never jumped, or a loop never woken, would otherwise hang the phase.
@Suite(.tags(.peer), .timeLimit(.minutes(1))) struct VirtualTimeRealTimeTests {
    @Test func aTenSecondTimerFiresAtOnceInRealTimeAndExactlyOnTheClock() async throws {
        let time = VirtualTime()
        defer { time.shutdown() }
        let loop = try EventLoop(label: "test-virtual", clock: time.clock)
        defer { loop.shutdown() }
        let real = ContinuousClock()
        let realStart = real.now
        let (start, fired) = await time.drive { () async -> (ContinuousClock.Instant, ContinuousClock.Instant) in
            let start = time.now
            let fired = await withCheckedContinuation { (continuation: CheckedContinuation<ContinuousClock.Instant, Never>) in
                loop.schedule(at: start + .seconds(10)) { continuation.resume(returning: time.now) }
            }
            return (start, fired)
        }
        #expect(start.duration(to: fired) == .seconds(10), "the timer fired \(start.duration(to: fired)) after it was set")
        // The clock jumped the whole 10 s rather than waiting them out (what virtual time is for, exactly) ...
        #expect(time.jumps.skipped == .seconds(10), "the clock skipped \(time.jumps.skipped)")
        // ... so the real time it took is under the 10 s a wait would take. That is the bound: the jump itself
        // takes microseconds, and a tighter one measured the machine's load instead (3.3 s were seen beside
        // builds and two busy loops on 2 cores).
        #expect(realStart.duration(to: real.now) < .seconds(10), "10 s of virtual time took \(realStart.duration(to: real.now)) of real time")
    }

    @Test func outsideADriveTimeFlowsAtTheRateOfRealTime() async throws {
        let time = VirtualTime()
        defer { time.shutdown() }
        let loop = try EventLoop(label: "test-virtual-flow", clock: time.clock)
        defer { loop.shutdown() }
        let real = ContinuousClock()
        let realStart = real.now
        let start = time.now
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.schedule(at: start + .milliseconds(100)) { continuation.resume() }
        }
        let realElapsed = realStart.duration(to: real.now)
        // Never early: virtual time outside a drive is real time from where it stood, so its 100 ms are at least
        // 100 ms of the wall clock (a loaded machine only makes it later).
        #expect(realElapsed >= .milliseconds(100), "a 100 ms timer fired after \(realElapsed) of real time outside a drive")
        #expect(time.jumps.count == 0)
    }
}
