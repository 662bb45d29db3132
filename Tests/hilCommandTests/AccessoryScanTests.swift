import Foundation
import TestSupport
import Testing

/// How long the app scanned: `hil accessory` advertises through an advertising set with scan request
/// notifications on a controller with LE Extended Advertising (a rig controller of the served air, claimed with
/// --listen-controller), and Google's Bumble scans from a fresh legacy controller of the same air. Bumble's own
/// view of its scan (the first and last advertisement it heard) and tshark's decoding of the capture are the
/// references.
@Suite(.serialized, .tags(.process, .peer)) struct AccessoryScanTests {
    /// The shipped simulated rig plus a controller `accessory` with LE Encryption, Peripheral-initiated
    /// Features Exchange and LE Extended Advertising (LE_Features 0x1009).
    static func rigWithAnExtendedAdvertiser(in directory: URL) throws -> URL {
        let shipped = repositoryRoot.appendingPathComponent("rigs/simulated.json")
        var rig = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as? [String: Any])
        var simulation = try #require(rig["simulation"] as? [String: Any])
        var controllers = try #require(simulation["controllers"] as? [[String: Any]])
        controllers.append(["name": "accessory", "address": "00:48:49:4C:00:0A", "leFeatures": 0x1009])
        simulation["controllers"] = controllers
        rig["simulation"] = simulation
        rig["$schema"] = nil
        let url = directory.appendingPathComponent("rig.json")
        try JSONSerialization.data(withJSONObject: rig).write(to: url)
        return url
    }

    @Test func theReportSaysHowLongTheAppScannedAsBumbleHeardIt() async throws {
        let directory = try SimServeCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let python = try await SimServeCommandTests.bumblePython()
        let rig = try Self.rigWithAnExtendedAdvertiser(in: directory)
        let air = "unix:" + directory.appendingPathComponent("air").path, accessory = "unix:" + directory.appendingPathComponent("acc").path
        let server = try ChildProgram(try ChildProgram.hilBinary(), ["sim", "serve", "--rig", rig.path, "--listen", air,
                                                                     "--listen-controller", "accessory=\(accessory)",
                                                                     "--control", "unix:" + directory.appendingPathComponent("ctl").path],
                                      name: "hil sim serve")
        defer { Task { await server.stop() } }
        // 10 s: hil sim serve boots the rig's accessories and binds three sockets; seconds on a loaded 2-core machine.
        let ready = await server.line(within: .seconds(10))
        try #require(ready != nil, "hil sim serve did not start: \(server.standardError)")
        let plan = directory.appendingPathComponent("plan.json")
        // The accessory goes away at 30 s, which ends the session: both Bumble apps must have scanned by then — each a
        // Python start-up (seconds on a loaded 2-core machine: at 9 s the passive app once found it gone) and a 2 s
        // or 1 s scan.
        try #"{"steps": [{"name": "go away", "at_ms": 30000, "do": "vanish"}]}"#.write(to: plan, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("results")
        let app = repositoryRoot.appendingPathComponent("scripts/peers/bumble-app-central.py").path
        let box = AccessoryCommandTests.Visits()
        let (status, output) = try await AccessoryCommandTests.session(profile: "profiles/heart-rate.json", plan: plan.path, name: "HIL-HeartRate",
                                                                        out: out, transport: accessory) { _ in
            // An app that scans actively for 2 s, then one (another address) that scans passively for 1 s.
            let active = await runProgramCapturing(python, [app, air, "--name", "HIL-HeartRate", "--addresses", "2"])
            await box.add(active.stdout, active.stderr)
            let passive = await runProgramCapturing(python, [app, air, "--name", "HIL-HeartRate", "--addresses", "1", "--passive",
                                                             "--address", "C0:A1:B2:C3:D4:E6"])
            await box.add(passive.stdout, passive.stderr)
        }
        await server.stop()
        #expect(status == 0, "hil accessory: \(output)")
        let visits = await box.all
        try #require(visits.count == 2)
        func json(_ visit: (stdout: String, stderr: String)) throws -> [String: Any] {
            try #require(visit.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
                         "Bumble printed no JSON: \(visit.stdout) \(visit.stderr.suffix(300))")
        }
        let active = try json(visits[0]), passive = try json(visits[1])
        // Both apps heard the accessory; only the active one shows in the report.
        #expect(passive["first_heard_ms"] != nil, "\(passive)")
        let first = try #require(active["first_heard_ms"] as? Double), last = try #require(active["last_heard_ms"] as? Double)
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("central.json"))) as? [String: Any])
        let scans = try #require(activity["scans"] as? [[String: Any]])
        try #require(scans.count == 1, "one scan (the active app's): \(scans)")
        let scan = scans[0]
        #expect(scan["scanner"] as? String == "C0:A1:B2:C3:D4:E5" && scan["addressType"] as? String == "random", "\(scan)")
        let duration = try #require(scan["durationMilliseconds"] as? Double)
        // Bumble heard an advertisement in every event it sent a scan request in: first to last agree.
        // ± 300 ms: Bumble's instants (its Python event loop) against the accessory's, on real time on a loaded machine.
        #expect(abs(duration - (last - first)) <= 300, "report: scanned for \(duration) ms; Bumble heard the accessory from \(first) to \(last) ms")
        // 100 ms advertising for about 2 s: a request per event.
        let requests = try #require(scan["requests"] as? Int)
        #expect((10...30).contains(requests), "\(requests) scan requests")
        #expect(output.contains("scan     C0:A1:B2:C3:D4:E5 (random) scanned actively for"), "\(output)")

        // tshark decodes the same LE Scan Request Received events in the session's capture, from the same scanner.
        let capture = out.appendingPathComponent("captures/accessory.btsnoop").path
        let rows = try await Tshark.fields(capture, ["bthci_evt.bd_addr"], filter: "bthci_evt.le_meta_subevent == 0x13")
        #expect(rows.count == requests, "tshark decoded \(rows.count) LE Scan Request Received events; the report counts \(requests)")
        #expect(rows.allSatisfy { $0.first?.lowercased() == "c0:a1:b2:c3:d4:e5" }, "\(rows.prefix(3))")
    }
}
