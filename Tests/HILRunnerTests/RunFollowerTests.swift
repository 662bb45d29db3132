@testable import HILResults
@testable import HILRunner
import Foundation
import Synchronization
import Testing
import TestSupport

/// The runner's follower draws the running case and its time on the status line, at most every quarter of a
/// second: on a time of day the test steps, the redraw comes at exactly 0.25 s, not a microsecond before.
@Suite struct RunFollowerTests {
    /// A time of day that moves only when the test advances it.
    final class SteppedDate: Sendable {
        private let date: Mutex<Date>
        init(_ start: Date) { date = Mutex(start) }
        var now: Date { date.withLock { $0 } }
        /// Steps are binary fractions of a second, which a `Date` this far from 2001 holds exactly.
        func advance(by seconds: Double) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// The run and its first case start here, seconds since 1970.
    static let started = 1_795_964_849.0

    /// A suite of two tests (Swift Testing's own records, from Fixtures/events/mixed-verdicts.jsonl), the run
    /// started and `passes()` running since `started`.
    static let events = [
        #"{"kind":"test","payload":{"id":"FixTests.PowerOffTests","kind":"suite","name":"PowerOffTests","sourceLocation":{"_filePath":"\/tmp\/evfix\/Tests\/FixTests\/FixTests.swift","column":2,"fileID":"FixTests\/FixTests.swift","line":4}},"version":0}"#,
        #"{"kind":"test","payload":{"id":"FixTests.PowerOffTests\/passes()\/FixTests.swift:5:6","isParameterized":false,"kind":"function","name":"passes()","sourceLocation":{"_filePath":"\/tmp\/evfix\/Tests\/FixTests\/FixTests.swift","column":6,"fileID":"FixTests\/FixTests.swift","line":5}},"version":0}"#,
        #"{"kind":"test","payload":{"id":"FixTests.PowerOffTests\/fails()\/FixTests.swift:6:6","isParameterized":false,"kind":"function","name":"fails()","sourceLocation":{"_filePath":"\/tmp\/evfix\/Tests\/FixTests\/FixTests.swift","column":6,"fileID":"FixTests\/FixTests.swift","line":6}},"version":0}"#,
        #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":\#(started)},"kind":"runStarted","messages":[]},"version":0}"#,
        #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":\#(started)},"kind":"testStarted","messages":[],"testID":"FixTests.PowerOffTests\/passes()\/FixTests.swift:5:6"},"version":0}"#,
    ]

    @Test func theStatusLineShowsTheRunningCaseAndIsRedrawnEveryQuarterSecond() throws {
        let directory = try TemporaryDirectory.make("hil-follower")
        defer { TemporaryDirectory.remove(directory) }
        let layout = ResultsLayout(directory)
        try layout.create()
        try (Self.events.joined(separator: "\n") + "\n").write(to: layout.events, atomically: true, encoding: .utf8)
        let out = ProgressTests.Lines()
        let time = SteppedDate(Date(timeIntervalSince1970: Self.started + 1.5))
        var follower = RunFollower(layout: layout, context: RunContext(started: Date(timeIntervalSince1970: Self.started)),
                                   printer: ProgressPrinter(RunOutput(isInteractive: true, out: out.append, err: { _ in })),
                                   now: { time.now })
        func drawn() -> [String] { out.text.components(separatedBy: "\r\u{1B}[2K").filter { !$0.isEmpty } }
        follower.poll(elapsed: 1.5)
        #expect(drawn() == ["[0/2] PowerOffTests/passes 1.50 s"])
        let justUnder = 1.0 / 1_048_576  // 2^-20 s, about a microsecond
        time.advance(by: 0.25 - justUnder)
        follower.poll(elapsed: 1.75)
        #expect(drawn().count == 1, "redrawn less than 0.25 s after: \(drawn())")
        time.advance(by: justUnder)
        follower.poll(elapsed: 1.75)
        #expect(drawn() == ["[0/2] PowerOffTests/passes 1.50 s", "[0/2] PowerOffTests/passes 1.75 s"])
    }
}
