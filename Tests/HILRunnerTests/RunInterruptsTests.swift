#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import HILResults
@testable import HILRunner
import Foundation
import Testing
import TestSupport

/// The signals a run receives: the first is kept with its time and the phase the run was in, the ones after
/// it only counted (the second ends the run at once); while the tests ran, the case running at the first
/// signal's time is read from the event stream.
@Suite struct RunInterruptsTests {
    static let time = Date(timeIntervalSince1970: RunFollowerTests.started + 0.5)

    /// The run of RunFollowerTests' events: `passes()` running since `started`.
    static func followedRun() throws -> SwiftTestingRun {
        var run = SwiftTestingRun()
        for line in RunFollowerTests.events { run.apply(try EventStreamRecord.decode(line: Data(line.utf8))) }
        return run
    }

    @Test func theFirstSignalIsKeptWithItsPhaseAndTheRestCounted() throws {
        let interrupts = RunInterrupts()
        #expect(interrupts.interruption() == nil, "no signal, no interruption")
        interrupts.enter(.building)
        #expect(interrupts.receive(SIGTERM, at: Self.time) == 1)
        interrupts.enter(.beforeFirstCase)
        #expect(interrupts.receive(SIGINT, at: Self.time.addingTimeInterval(1)) == 2)
        let first = try #require(interrupts.first)
        #expect(first == RunInterrupts.Received(signal: SIGTERM, time: Self.time, phase: .building))
        let interruption = try #require(interrupts.interruption(action: "stopped the build (PID 9)"))
        #expect(interruption.exitStatus == 143)
        #expect(interruption.phase == .building)
        #expect(interruption.message.hasSuffix("while building the tests; stopped the build (PID 9)"), "\(interruption.message)")
    }

    /// While the tests ran, the runner may not have read the event stream's last lines when the signal came:
    /// the phase is refined from the stream as it is at the end, at the signal's time.
    @Test func whileTheTestsRanThePhaseNamesTheCaseRunningAtTheSignal() throws {
        let run = try Self.followedRun()
        let interrupts = RunInterrupts()
        interrupts.enter(.beforeFirstCase)
        interrupts.receive(SIGINT, at: Self.time)
        #expect(interrupts.interruption()?.phase == .beforeFirstCase, "without the stream, what the run knew")
        #expect(interrupts.interruption(refinedBy: run)?.phase == .duringCase("PowerOffTests/passes"))
    }

    /// Outside the tests (building, writing) the stream does not change the phase.
    @Test func outsideTheTestsTheStreamIsNotConsulted() throws {
        let run = try Self.followedRun()
        let interrupts = RunInterrupts()
        interrupts.enter(.writingResults)
        interrupts.receive(SIGTERM, at: Self.time)
        #expect(interrupts.interruption(refinedBy: run)?.phase == .writingResults)
    }
}
