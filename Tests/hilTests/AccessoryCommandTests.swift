import Foundation
import TestSupport
import Testing

/// `hil accessory` against a phone app nobody here wrote: Google's Bumble plays the app on btvirt
/// (scripts/peers/bumble-app-central.py), the real `hil` binary plays the accessory and runs
/// plans/drop-and-return.json; the app's own view of the link is the reference.
@Suite(.serialized) struct AccessoryCommandTests {
    static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let app = repositoryRoot.appendingPathComponent("scripts/peers/bumble-app-central.py").path

    @Test func theAppSeesTheDropWithItsReasonAndTheReportStatesTheReconnectDelay() async throws {
        let lock = try await FileLock.acquire(path: BtvirtPeer.lockPath, timeout: .seconds(120))
        defer { lock.release() }
        try await BtvirtPeer.ensureRunning()
        if !FileManager.default.isExecutableFile(atPath: Self.python) {
            let made = await runProgram(repositoryRoot.appendingPathComponent("scripts/peers/venv").path, [])
            try #require(made.status == 0, "cannot create the Python venv for Bumble: \(made.output)")
        }
        let out = try TemporaryDirectory.make("hil-accessory")
        defer { TemporaryDirectory.remove(out) }
        let hil = try ChildProgram(try ChildProgram.hilBinary(), ["accessory", "unix:" + BtvirtPeer.lePath, "--profile", "profiles/heart-rate.json",
                                                                  "--plan", "plans/drop-and-return.json", "--out", out.path], name: "hil accessory")
        let advertising = await hil.line(within: .seconds(15)) { $0.contains("advertising \"HIL-HeartRate\"") }
        guard advertising != nil else {
            await hil.stop()
            Issue.record("hil accessory did not start advertising: \(hil.standardOutput) \(hil.standardError)")
            return
        }
        let ran = await runProgramCapturing(Self.python, [Self.app, "unix:" + BtvirtPeer.lePath, "--name", "HIL-HeartRate", "--timeout", "15", "--wait", "20"])
        let status = await hil.exitStatus(within: .seconds(30))
        if status == nil { await hil.stop() }
        let json = try #require(ran.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
                                "the Bumble app printed no JSON: \(ran.stdout) \(ran.stderr)")
        #expect(json["error"] == nil, "\(json)")
        // Bumble's view: the link ended with 0x13 about a second after it connected (the plan's after_connect_ms).
        #expect(json["disconnect_reason"] as? Int == 0x13, "\(json)")
        let after = try #require(json["disconnect_after_ms"] as? Double)
        #expect(abs(after - 1000) <= 300, "Bumble saw the link end \(after) ms after connecting; the plan said 1000 ± 300")
        #expect(status == 0, "hil accessory: \(hil.standardOutput) \(hil.standardError)")

        // The report, read by junitparser (the JUnit reader CI tools use): the expectation passed, one case per
        // expectation plus the central's activity.
        let junit = await runProgramCapturing(Self.python, ["-c", """
            import sys, junitparser
            xml = junitparser.JUnitXml.fromfile(sys.argv[1])
            cases = [case for suite in xml for case in suite]
            print(len(cases), sum(1 for case in cases if case.is_passed))
            """, out.appendingPathComponent("junit.xml").path])
        #expect(junit.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2 2", "junitparser: \(junit.stdout) \(junit.stderr)")

        // The reconnect delay the report states agrees with Bumble's: Bumble measured from the drop to its
        // reconnection, which includes the plan's 2000 ms away.
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("central.json"))) as? [String: Any])
        let step = try #require((activity["steps"] as? [[String: Any]])?.first)
        let check = try #require((step["checks"] as? [[String: Any]])?.first)
        #expect(check["passed"] as? Bool == true, "\(check)")
        let measured = try #require(check["measured"] as? Double)
        let bumbleDelay = try #require(json["reconnect_after_ms"] as? Double)
        #expect(abs((bumbleDelay - 2000) - measured) <= 300, "report: \(measured) ms after advertising again; Bumble: \(bumbleDelay) ms after the drop")
        let report = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(report.contains("reconnect"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("captures/accessory.btsnoop").path))
    }
}
