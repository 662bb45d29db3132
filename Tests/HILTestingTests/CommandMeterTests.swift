import DeviceControl
import EventLoops
import Foundation
@testable import HILTesting
import PowerMeters
import Testing
import TestSupport

/// The `command` meter with a real program standing in for a lab's recorder (scripts/peers/current-recorder.py:
/// a current profile written to CSV in real time until SIGINT): started, stopped, its CSV read and put on the
/// bench's clock, and each window's figures those of the profile — 100 µA for 0.6 s, then 1 mA, then 10 µA.
@Suite(.tags(.process)) struct CommandMeterTests {
    static let recorder = repositoryRoot.appendingPathComponent("scripts/peers/current-recorder.py").path
    static let levels = "100,1000,10"

    static func meter(_ extra: [String], stopDeadline: Duration = .seconds(5)) throws -> (CommandMeter, URL) {
        let directory = try TemporaryDirectory.make("hil-command-meter")
        let csv = directory.appendingPathComponent("trace.csv").path
        let recorder = try CommandMeterRecorder(name: "bench-joulescope", argv: ["python3", Self.recorder, "{csv}", Self.levels, "0.6"] + extra,
                                                csvPath: csv, stopDeadline: stopDeadline)
        return (CommandMeter(name: "bench-joulescope", supplyVolts: 3, recorder: recorder), directory)
    }

    /// Windows in the middle of each level, on the bench's clock. A `time_s` trace starts at the spawn
    /// (`origin`), so its windows are taken from there. A `unix_s` trace is placed by the wall clock where the
    /// program really started — after its start-up, seconds late on a loaded machine — so its windows are taken
    /// from the program's start as its first row says (`unix_s` of its sample at 0), put on the bench's clock
    /// through the wall clock read here: exact, however late the program started or was noticed.
    @Test(arguments: [["--clock", "start"], ["--clock", "unix"], ["--clock", "unix", "--ignore-sigint"]])
    func figuresAreTheProfilesOnTheBenchClock(extra: [String]) async throws {
        let (meter, directory) = try Self.meter(extra, stopDeadline: .milliseconds(500))
        defer { TemporaryDirectory.remove(directory) }
        let clock = LoopClock.real
        let origin = clock.now
        try await meter.begin(at: origin)
        var base = origin
        if extra.contains("unix") {
            let text = try String(contentsOfFile: directory.appendingPathComponent("trace.csv").path, encoding: .utf8)
            let firstRow = try #require(text.split(separator: "\n").dropFirst().first)
            let programStart = try #require(Double(firstRow.split(separator: ",")[0]))
            let (now, wall) = (clock.now, Date().timeIntervalSince1970)
            base = now.advanced(by: .seconds(programStart - wall))
        }
        try await Task.sleep(for: .milliseconds(1500))
        func window(_ from: Int, _ to: Int) async throws -> CurrentFigures {
            try await meter.figures(from: base.advanced(by: .milliseconds(from)), to: base.advanced(by: .milliseconds(to)))
        }
        let first = try await window(200, 300), second = try await window(800, 900)
        #expect(abs(first.averageMicroamperes - 100) < 1e-6, "\(first)")
        #expect(abs(second.averageMicroamperes - 1000) < 1e-6, "\(second)")
        #expect(abs(second.chargeMicrocoulombs - 100) < 1e-6 && abs(second.energyMicrojoules - 300) < 1e-6, "1 mA for 0.1 s at 3 V: \(second)")
        #expect(second.samples == 10_000, "0.1 s on the nominal 100 kHz grid")
        await #expect(throws: PowerMeterError.self, "a window after the recording stopped") { try await window(1400, 600_000) }
        let file = try String(contentsOfFile: directory.appendingPathComponent("trace.csv").path, encoding: .utf8)
        #expect(file.hasPrefix(extra.contains("unix") ? "unix_s,current_uA\n" : "time_s,current_uA\n"))
    }

    @Test func aProgramThatEndsByItselfIsTheBenchsTrouble() async throws {
        let directory = try TemporaryDirectory.make("hil-command-meter")
        defer { TemporaryDirectory.remove(directory) }
        let script = "printf 'time_s,current_uA\\n0,5\\n' > \"$1\"; echo 'device unplugged' >&2; exit 3"
        let recorder = try CommandMeterRecorder(name: "otii", argv: ["sh", "-c", script, "sh", "{csv}"],
                                                csvPath: directory.appendingPathComponent("t.csv").path)
        let meter = CommandMeter(name: "otii", supplyVolts: 3, recorder: recorder)
        let origin = LoopClock.real.now
        try await meter.begin(at: origin)
        try await Task.sleep(for: .milliseconds(300))
        await #expect {
            _ = try await meter.figures(from: origin, to: origin.advanced(by: .milliseconds(1)))
        } throws: { error in
            "\(error)".contains("otii: `sh` ended by itself (exit 3)") && "\(error)".contains("device unplugged")
        }
    }

    @Test func aBadRowIsNamedByFileAndLine() async throws {
        let directory = try TemporaryDirectory.make("hil-command-meter")
        defer { TemporaryDirectory.remove(directory) }
        let csv = directory.appendingPathComponent("t.csv").path
        let script = "printf 'time_s,current_uA\\n0,5\\n0.001,five\\n' > \"$1\"; exec sleep 30"
        let recorder = try CommandMeterRecorder(name: "otii", argv: ["sh", "-c", script, "sh", "{csv}"], csvPath: csv)
        let meter = CommandMeter(name: "otii", supplyVolts: 3, recorder: recorder)
        let origin = LoopClock.real.now
        try await meter.begin(at: origin)
        await #expect {
            _ = try await meter.figures(from: origin, to: origin.advanced(by: .microseconds(500)))
        } throws: { error in
            "\(error)" == "otii: \(csv):3: current_uA is not a number, found \"0.001,five\""
        }
    }
}
