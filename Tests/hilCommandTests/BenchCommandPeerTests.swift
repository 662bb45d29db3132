import Foundation
import TestSupport
import Testing

/// `hil bench` as central against Bumble's own bench app (scripts/peers/bumble-bench.py, bumble.apps.bench)
/// as the peripheral on btvirt: Bumble streams a counted run of SEQUENCE notifications and waits for the ACK
/// of its last; both sides must count the same packets and octets.
///
/// Bumble paces its packets 1 ms apart: btvirt drops what a receiving host does not read in time (no flow
/// control back to the sender), and this test is about counting, not speed (scripts/bench/bench-throughput
/// measures that). The waits are Bumble's start-up (importing Bumble takes seconds on a loaded 2-core machine)
/// and a 200-packet run at 1 ms a packet.
@Suite(.serialized, .tags(.process, .peer)) struct BenchCommandPeerTests {
    static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let bench = repositoryRoot.appendingPathComponent("scripts/peers/bumble-bench.py").path

    @Test func theCentralCountsEveryOctetBumblesBenchSentAndAcknowledgesTheLast() async throws {
        if !FileManager.default.isExecutableFile(atPath: Self.python) {
            let made = await runProgram(repositoryRoot.appendingPathComponent("scripts/peers/venv").path, [])
            try #require(made.status == 0, "cannot create the Python venv for Bumble: \(made.output)")
        }
        // Two minutes: another process's session on btvirt may hold it (one session lasts well under that).
        let lock = try await FileLock.acquire(path: BtvirtPeer.lockPath, timeout: .seconds(120))
        defer { lock.release() }
        try await BtvirtPeer.ensureRunning()
        let transport = "unix:" + BtvirtPeer.lePath
        let bumble = try ChildProgram(Self.python, [Self.bench, "--quiet-packets", "--mode", "gatt-server", "--scenario", "send",
                                                    "--packet-size", "244", "--packet-count", "200", "--pace", "1", "peripheral", transport],
                                      name: "Bumble bench")
        // 20 s: Python importing Bumble and powering the controller on, on a loaded machine.
        let advertising = await bumble.until(within: .seconds(20)) { bumble.standardError.contains { $0.contains("Waiting for connection") } }
        guard advertising else {
            await bumble.stop()
            Issue.record("Bumble's bench did not advertise: \(bumble.standardError.suffix(5))")
            return
        }
        let hil = try ChildProgram(try ChildProgram.hilBinary(), ["bench", transport, "--address", "F1:F1:F1:F1:F1:F1", "--mode", "notify",
                                                                  "--seconds", "20", "--json"], name: "hil bench")
        // 40 s: the scan, connection and discovery, Bumble's 1 s start delay and 200 packets 1 ms apart, with room for load.
        let status = await hil.exitStatus(within: .seconds(40))
        // 10 s: Bumble logs its ACK line as soon as our ACK arrives.
        let acknowledged = await bumble.until(within: .seconds(10)) { bumble.standardError.contains { $0.contains("Received ACK") } }
        await hil.stop()
        await bumble.stop()
        #expect(status == 0, "hil bench: \(hil.standardOutput) \(hil.standardError)")
        let report = try #require(hil.standardOutput.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
                                  "hil bench printed no JSON: \(hil.standardOutput) \(hil.standardError)")
        #expect(acknowledged, "Bumble got no ACK: \(bumble.standardError.suffix(5))")
        let sent = try #require(bumble.standardError.last { $0.contains("SENT packets=") }, "Bumble logged no totals: \(bumble.standardError.suffix(5))")
        // Bumble counts a packet's octets as we do: the ATT value, its 10-octet bench header included.
        #expect(sent.contains("packets=200 bytes=48800 "), "Bumble: \(sent)")
        #expect(report["bytes"] as? Int == 48_800, "hil bench: \(report)")
        #expect(report["packets"] as? Int == 200, "hil bench: \(report)")
        #expect(report["sequence_gaps"] as? Int == 0, "hil bench: \(report)")
        #expect(report["acknowledged"] as? Bool == true, "hil bench: \(report)")
    }
}
