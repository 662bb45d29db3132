import Foundation
import TestSupport
import Testing

/// `hil accessory` against a phone app nobody here wrote: Google's Bumble plays the app on btvirt
/// (scripts/peers/bumble-app-central.py), the real `hil` binary plays the accessory and runs
/// plans/drop-and-return.json; the app's own view of the link is the reference.
///
/// Everything here runs on real time (btvirt, Bumble and `hil` are separate processes): ± 300 ms is how far
/// Bumble's measurement of an instant (its Python event loop, its HCI socket) can lie from the accessory's on a
/// loaded 2-core machine, and the waits for processes are their start-up there.
@Suite(.serialized, .tags(.process, .peer)) struct AccessoryCommandTests {
    static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let app = repositoryRoot.appendingPathComponent("scripts/peers/bumble-app-central.py").path

    /// Where a session runs: btvirt's air, or a simulated air `hil sim serve` serves (lab twin), each client a
    /// controller on it.
    enum Air: CustomStringConvertible {
        case btvirt
        case served

        var description: String { self == .btvirt ? "btvirt" : "hil sim serve" }
    }

    /// One session on `air`: `hil accessory` plays `profile` with `plan`, the Bumble app (with `appArguments`)
    /// connects to it; returns what the app printed, `hil accessory`'s exit status and its output.
    static func play(profile: String, plan: String, name: String, out: URL, appArguments: [String], air: Air = .btvirt) async throws
        -> (app: [String: Any], status: Int32?, output: String) {
        let box = AppOutput()
        let (status, output) = try await session(profile: profile, plan: plan, name: name, out: out, air: air) { transport in
            let ran = await runProgramCapturing(Self.python, [Self.app, transport, "--name", name] + appArguments)
            await box.set(ran.stdout, ran.stderr)
        }
        let ran = await box.value
        let json = try #require(ran?.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
                                "the Bumble app printed no JSON: \(ran?.stdout ?? "") \(ran?.stderr ?? "")")
        return (json, status, output)
    }

    /// What the one app of `play` printed.
    actor AppOutput {
        var value: (stdout: String, stderr: String)?
        func set(_ stdout: String, _ stderr: String) { value = (stdout, stderr) }
    }

    /// `hil accessory` plays `profile` with `plan` on `air` until it ends by itself (30 s after `centrals` returned
    /// at most), once it advertises `name`; `centrals` plays the phone on the air's transport. Returns its exit
    /// status and output.
    static func session(profile: String, plan: String, name: String, out: URL, air: Air, centrals: (String) async throws -> Void) async throws
        -> (status: Int32?, output: String) {
        if !FileManager.default.isExecutableFile(atPath: Self.python) {
            let made = await runProgram(repositoryRoot.appendingPathComponent("scripts/peers/venv").path, [])
            try #require(made.status == 0, "cannot create the Python venv for Bumble: \(made.output)")
        }
        switch air {
        case .btvirt:
            // Two minutes: another process's session on btvirt may hold it (one session lasts well under that).
            let lock = try await FileLock.acquire(path: BtvirtPeer.lockPath, timeout: .seconds(120))
            defer { lock.release() }
            try await BtvirtPeer.ensureRunning()
            return try await session(profile: profile, plan: plan, name: name, out: out, transport: "unix:" + BtvirtPeer.lePath, centrals: centrals)
        case .served:
            let directory = try SimServeCommandTests.scratch()
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try await SimServeCommandTests.serve(directory)
            do {
                let ended = try await session(profile: profile, plan: plan, name: name, out: out,
                                              transport: "unix:" + directory.appendingPathComponent("air").path, centrals: centrals)
                await server.stop()
                return ended
            } catch {
                await server.stop()
                throw error
            }
        }
    }

    static func session(profile: String, plan: String, name: String, out: URL, transport: String, centrals: (String) async throws -> Void) async throws
        -> (status: Int32?, output: String) {
        let hil = try ChildProgram(try ChildProgram.hilBinary(), ["accessory", transport, "--profile", profile,
                                                                  "--plan", plan, "--out", out.path], name: "hil accessory")
        // 15 s: the process's start-up, the rig lock and the controller's initialization on a loaded machine.
        let advertising = await hil.line(within: .seconds(15)) { $0.contains("advertising \"\(name)\"") }
        guard advertising != nil else {
            await hil.stop()
            Issue.record("hil accessory did not start advertising: \(hil.standardOutput) \(hil.standardError)")
            throw CancellationError()
        }
        do {
            try await centrals(transport)
        } catch {
            await hil.stop()
            throw error
        }
        // 30 s: the plan's remaining steps and expectations (each well under 10 s) and the report.
        let status = await hil.exitStatus(within: .seconds(30))
        if status == nil { await hil.stop() }
        return (status, (hil.standardOutput + hil.standardError).joined(separator: "\n"))
    }

    /// The first step's first check in central.json.
    static func firstCheck(in out: URL) throws -> [String: Any] {
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("central.json"))) as? [String: Any])
        let step = try #require((activity["steps"] as? [[String: Any]])?.first)
        return try #require((step["checks"] as? [[String: Any]])?.first)
    }

    @Test(arguments: [Air.btvirt, .served])
    func theAppSeesTheDropWithItsReasonAndTheReportStatesTheReconnectDelay(air: Air) async throws {
        let out = try TemporaryDirectory.make("hil-accessory")
        defer { TemporaryDirectory.remove(out) }
        let (json, status, output) = try await Self.play(profile: "profiles/heart-rate.json", plan: "plans/drop-and-return.json", name: "HIL-HeartRate",
                                                         out: out, appArguments: ["--timeout", "15", "--wait", "20"], air: air)
        #expect(json["error"] == nil, "\(json)")
        // Bumble's view: the link ended with 0x13 about a second after it connected (the plan's after_connect_ms).
        #expect(json["disconnect_reason"] as? Int == 0x13, "\(json)")
        let after = try #require(json["disconnect_after_ms"] as? Double)
        #expect(abs(after - 1000) <= 300, "Bumble saw the link end \(after) ms after connecting; the plan said 1000 ± 300")
        #expect(status == 0, "hil accessory: \(output)")

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
        let check = try Self.firstCheck(in: out)
        #expect(check["passed"] as? Bool == true, "\(check)")
        let measured = try #require(check["measured"] as? Double)
        let bumbleDelay = try #require(json["reconnect_after_ms"] as? Double)
        #expect(abs((bumbleDelay - 2000) - measured) <= 300, "report: \(measured) ms after advertising again; Bumble: \(bumbleDelay) ms after the drop")
        let report = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(report.contains("reconnect"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("captures/accessory.btsnoop").path))
    }

    /// Service Changed, as Bumble's GATT client sees it: the indication names the handles from the added service
    /// on, and discovering again finds that service. The app that re-discovers passes the plan's expectation.
    @Test func anAppThatRediscoversAfterServiceChangedPasses() async throws {
        let out = try TemporaryDirectory.make("hil-accessory-sc")
        defer { TemporaryDirectory.remove(out) }
        let (json, status, output) = try await Self.play(profile: "profiles/thermometer.json", plan: "plans/service-changed.json", name: "HIL-Thermo",
                                                         out: out, appArguments: ["--timeout", "15", "--wait", "10", "--service-changed", "rediscover"])
        #expect(json["error"] == nil, "\(json)")
        let added = "48494C53-4300-4000-8000-000000000001"
        let before = json["services_before"] as? [String] ?? [], after = json["services_after"] as? [String] ?? []
        #expect(!before.contains(added) && after.contains(added), "before: \(before), after: \(after)")
        #expect(Set(after).isSuperset(of: before), "before: \(before), after: \(after)")
        // The indicated range starts past the profile's own handles and runs to the end.
        let range = json["service_changed"] as? [Int] ?? []
        #expect(range.count == 2 && range[1] == 0xFFFF && range[0] > 1, "\(json)")
        let indicatedAfter = try #require(json["service_changed_after_ms"] as? Double)
        #expect(abs(indicatedAfter - 1000) <= 300, "Bumble was told \(indicatedAfter) ms after connecting; the plan said 1000 ± 300")
        #expect(status == 0, "hil accessory: \(output)")
        // hil accessory ends the link it leaves when its run is over, as the user ending the session.
        #expect(json["disconnect_reason"] as? Int == 0x13, "\(json)")
        let check = try Self.firstCheck(in: out)
        #expect(check["key"] as? String == "rediscover_after_service_changed")
        #expect(check["passed"] as? Bool == true, "\(check)")
        let measured = try #require(check["measured"] as? Double)
        #expect(measured >= 0 && measured <= 5000, "\(check)")
    }

    /// The same plan against an app that ignores Service Changed: the expectation fails, naming what was missing,
    /// and `hil accessory` exits 1 (a product failure: the app's).
    @Test func anAppThatIgnoresServiceChangedFailsTheExpectation() async throws {
        let out = try TemporaryDirectory.make("hil-accessory-sc-ignored")
        defer { TemporaryDirectory.remove(out) }
        let (json, status, output) = try await Self.play(profile: "profiles/thermometer.json", plan: "plans/service-changed.json", name: "HIL-Thermo",
                                                         out: out, appArguments: ["--timeout", "15", "--wait", "10", "--service-changed", "ignore"])
        #expect(json["error"] == nil, "\(json)")
        #expect(json["service_changed"] != nil, "\(json)")
        #expect(status == 1, "hil accessory: \(output)")
        let check = try Self.firstCheck(in: out)
        #expect(check["passed"] as? Bool == false, "\(check)")
        let message = check["message"] as? String ?? ""
        #expect(message.hasPrefix("the central did not re-discover handles 0x") && message.hasSuffix("within 5000 ms of being told of the change (Service Changed)"),
                "\(message)")
        let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<failure") && junit.contains("rediscover_after_service_changed"), "\(junit)")
    }

    /// A notification flood and a connection parameter update, on the served simulated air (btvirt never completes
    /// an LE Connection Update): Bumble counts every notification the accessory says it sent, and its central
    /// accepts the 30 ms interval the accessory asks for after the app reads Body Sensor Location.
    @Test func aFloodReachesTheAppWholeAndTheAppAcceptsTheParameters() async throws {
        let out = try TemporaryDirectory.make("hil-accessory-load")
        defer { TemporaryDirectory.remove(out) }
        let (json, status, output) = try await Self.play(profile: "profiles/heart-rate.json", plan: "plans/app-under-load.json", name: "HIL-HeartRate",
                                                         out: out, appArguments: ["--timeout", "15", "--wait", "10", "--under-load"], air: .served)
        #expect(json["error"] == nil, "\(json)")
        #expect(status == 0, "hil accessory: \(output)")
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("central.json"))) as? [String: Any])
        let steps = try #require(activity["steps"] as? [[String: Any]])
        try #require(steps.count == 2, "\(steps)")
        // Every notification the accessory handed its controller reached the app (a simulated link loses nothing).
        let sent = try #require(steps[0]["notificationsSent"] as? Int, "\(steps[0])")
        let received = try #require(json["notifications"] as? Int, "\(json)")
        #expect(sent > 100 && received == sent, "the accessory sent \(sent), Bumble counted \(received)")
        let flood = try #require(json["flood_ms"] as? Double)
        #expect(abs(flood - 2000) <= 300, "Bumble saw the flood last \(flood) ms; the plan said 2000")
        // Bumble's own view of the connection after the update: what the plan asked for.
        let parameters = try #require(json["parameters"] as? [String: Any], "\(json)")
        #expect(parameters["interval_ms"] as? Double == 30 && parameters["latency"] as? Int == 0
                && parameters["supervision_timeout_ms"] as? Double == 4000, "\(parameters)")
        let check = try #require((steps[1]["checks"] as? [[String: Any]])?.first)
        #expect(check["key"] as? String == "accept_parameters" && check["passed"] as? Bool == true, "\(check)")
        let events = try #require(activity["events"] as? [[String: Any]])
        #expect(events.contains { ($0["detail"] as? String)?.contains("update_parameters (after the central's read 2A38") == true },
                "the step names the read that triggered it: \(events.compactMap { $0["detail"] as? String })")
    }

    /// A profile's counter, as the app receives it: every value Bumble got is the prefix and the next counter
    /// value, one every 100 ms while it was subscribed. The app also asks for LE 2M, and the report says so.
    @Test func theAppReceivesAProfilesCounterInOrder() async throws {
        let out = try TemporaryDirectory.make("hil-accessory-counter")
        defer { TemporaryDirectory.remove(out) }
        let profile = out.appendingPathComponent("counter.json"), plan = out.appendingPathComponent("plan.json")
        try #"""
            {"name": "HIL-Counter", "services": [{"uuid": "5a5e2000-6b1c-4d9e-9a5f-000000000001",
              "characteristics": [{"uuid": "5a5e2001-6b1c-4d9e-9a5f-000000000001", "properties": ["read", "notify"], "value_hex": "000000"}]}],
             "notify": [{"characteristic": "5a5e2001-6b1c-4d9e-9a5f-000000000001", "every_ms": 100, "prefix_hex": "aa",
                         "counter": {"start": 1000, "step": 3, "octets": 2}}]}
            """#.write(to: profile, atomically: true, encoding: .utf8)
        try #"{"steps": [{"after_connect_ms": 2000, "do": "disconnect"}]}"#.write(to: plan, atomically: true, encoding: .utf8)
        let (json, status, output) = try await Self.play(profile: profile.path, plan: plan.path, name: "HIL-Counter", out: out.appendingPathComponent("results"),
                                                         appArguments: ["--timeout", "15", "--wait", "10", "--phy-2m", "--collect", "5a5e2001-6b1c-4d9e-9a5f-000000000001"],
                                                         air: .served)
        #expect(json["error"] == nil, "\(json)")
        #expect(status == 0, "hil accessory: \(output)")
        #expect(json["disconnect_reason"] as? Int == 0x13, "\(json)")
        let values = (json["values"] as? [String] ?? []).compactMap { hex -> Int? in
            guard hex.count == 6, hex.hasPrefix("aa"), let low = Int(hex.dropFirst(2).prefix(2), radix: 16), let high = Int(hex.suffix(2), radix: 16) else { return nil }
            return low | high << 8
        }
        // Subscribed a few hundred ms after connecting, until the drop at 2 s: about 15 to 20 values.
        #expect(values.count >= 10 && values.count == (json["values"] as? [String])?.count, "\(json)")
        #expect(zip(values, values.dropFirst()).allSatisfy { $1 - $0 == 3 } && (values.first ?? 0) >= 1000 && ((values.first ?? 0) - 1000) % 3 == 0,
                "not the counter 1000, 1003, …: \(values)")
        // LE Set PHY from Bumble's side: its controller and hil's report agree on LE 2M both ways.
        let phy = json["phy"] as? [String: Any]
        #expect(phy?["tx"] as? Int == 2 && phy?["rx"] as? Int == 2, "\(json)")
        let activity = try String(contentsOf: out.appendingPathComponent("results/central.json"), encoding: .utf8)
        #expect(activity.contains("PHY update: transmitting on LE 2M, receiving on LE 2M"), "\(activity)")
    }

    /// LE privacy as a phone's scanner sees it: a resolvable private address, a new one after `rotate_address`,
    /// each resolving with the profile's IRK by the Core spec's ah function (Vol 3 Part H §2.2.2) computed with
    /// Python's `cryptography` AES — the IRK is the spec's own sample key.
    @Test func aRotatedPrivateAddressIsNewAndResolvesWithTheIRK() async throws {
        let out = try TemporaryDirectory.make("hil-accessory-rpa")
        defer { TemporaryDirectory.remove(out) }
        let irk = "ec0234a357c8ad05341010a60a397d9b"
        let profile = out.appendingPathComponent("private.json"), plan = out.appendingPathComponent("plan.json")
        try #"{"name": "HIL-Private", "services": [{"profile": "battery"}], "address": {"type": "resolvable-private", "identity": "C3:11:22:33:44:55", "irk_hex": "\#(irk)"}}"#
            .write(to: profile, atomically: true, encoding: .utf8)
        // Bumble starts scanning after hil advertises (a Python start-up that took over 1.5 s on a loaded machine):
        // the rotation comes 3 s after the start, inside Bumble's 6 s scan unless its start-up takes over 3 s.
        try #"{"steps": [{"at_ms": 3000, "do": "rotate_address"}]}"#.write(to: plan, atomically: true, encoding: .utf8)
        let (json, status, output) = try await Self.play(profile: profile.path, plan: plan.path, name: "HIL-Private", out: out.appendingPathComponent("results"),
                                                         appArguments: ["--addresses", "6"], air: .served)
        #expect(status == 0, "hil accessory: \(output)")
        let seen = try #require(json["addresses"] as? [[String]], "\(json)")
        #expect(seen.count == 2 && seen.allSatisfy { $0.last == "random" }, "Bumble saw \(seen)")
        let addresses = seen.compactMap(\.first)
        let resolved = await runProgramCapturing(Self.python, ["-c", """
            import sys
            from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
            irk = bytes.fromhex(sys.argv[1])
            for text in sys.argv[2:]:
                octets = bytes.fromhex(text.replace(":", ""))
                prand, hash = octets[:3], octets[3:]
                encryptor = Cipher(algorithms.AES(irk), modes.ECB()).encryptor()
                ah = (encryptor.update(bytes(13) + prand) + encryptor.finalize())[-3:]
                print(text, "resolvable" if prand[0] >> 6 == 1 else "not-rpa", "resolves" if ah == hash else "does-not-resolve")
            """, irk] + addresses)
        let lines = resolved.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasSuffix(" resolvable resolves") }, "\(resolved.stdout) \(resolved.stderr)")
        // hil's own record names the addresses it advertised from: the same two.
        let activity = try String(contentsOf: out.appendingPathComponent("results/central.json"), encoding: .utf8)
        #expect(addresses.allSatisfy { activity.contains("as \($0) (resolvable private)") }, "\(activity)")
    }

    /// A plan that rotates the address of a profile that has none to rotate is refused before anything opens.
    @Test func rotatingAPublicAddressIsAUsageError() async throws {
        let out = try TemporaryDirectory.make("hil-accessory-rotate")
        defer { TemporaryDirectory.remove(out) }
        let plan = out.appendingPathComponent("plan.json")
        try #"{"steps": [{"at_ms": 10, "do": "rotate_address", "name": "new address"}]}"#.write(to: plan, atomically: true, encoding: .utf8)
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), ["accessory", "unix:/nonexistent/air", "--profile", "profiles/heart-rate.json",
                                                                           "--plan", plan.path, "--out", out.appendingPathComponent("results").path])
        #expect(ran.termination?.exitStatus == 3, "\(ran.stdout) \(ran.stderr)")
        #expect(ran.stderr == "hil accessory: plan \(plan.path): new address rotates the address, but profile profiles/heart-rate.json advertises with a "
                + "public address (give it \"address\": {\"type\": \"resolvable-private\"})\n", "\(ran.stderr)")
    }

    /// Pairing and bonds as a bonded phone lives them, played by Bumble's secure central with one key store across
    /// three visits on the served air: the plan asks for pairing (it pairs), the next visit encrypts with the
    /// bond (the expectation passes), then the accessory forgets the bond and Bumble's next encryption fails
    /// with PIN or Key Missing (0x06) — Bumble's own words for it.
    @Test func aBondIsUsedThenForgotten() async throws {
        let out = try TemporaryDirectory.make("hil-accessory-bond")
        defer { TemporaryDirectory.remove(out) }
        let profile = out.appendingPathComponent("secure.json"), plan = out.appendingPathComponent("plan.json")
        let keystore = out.appendingPathComponent("keys.json").path
        try #"{"name": "HIL-Bonded", "services": [{"profile": "heart-rate"}, {"profile": "battery"}], "security": {"pairing": "just-works"}}"#
            .write(to: profile, atomically: true, encoding: .utf8)
        try #"""
            {"steps": [{"name": "bond", "after_connect_ms": 0, "do": "require_pairing", "expect": {"pair_within_ms": 10000, "reencrypt_with_bond": true}},
                       {"name": "forget", "after_read": "2A38", "do": "forget_bond"},
                       {"name": "end", "at_ms": 9000, "do": "refuse_pairing"}]}
            """#.write(to: plan, atomically: true, encoding: .utf8)
        let central = repositoryRoot.appendingPathComponent("scripts/peers/bumble-secure-central.py").path
        let visits = Visits()
        let (status, output) = try await Self.session(profile: profile.path, plan: plan.path, name: "HIL-Bonded", out: out.appendingPathComponent("results"),
                                                      air: .served) { air in
            for uuid in ["2A19", "2A38", "2A19"] {
                let ran = await runProgramCapturing(Self.python, [central, air, "--name", "HIL-Bonded", "--method", "just-works", "--keystore", keystore,
                                                                  "--read-uuid", uuid, "--timeout", "10"])
                await visits.add(ran.stdout, ran.stderr)
            }
        }
        let all = await visits.all.map { ran -> [String: Any] in
            ran.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                ?? ["error": "no JSON: \(ran.stdout) \(ran.stderr.suffix(400))"]
        }
        try #require(all.count == 3)
        let (first, second, third) = (all[0], all[1], all[2])
        #expect(first["paired"] as? Bool == true && first["bonded"] as? Bool == true && first["error"] is NSNull, "first visit: \(first)")
        #expect(second["bonded_reconnect"] as? Bool == true && second["encrypted"] as? Bool == true && second["error"] is NSNull, "second visit: \(second)")
        #expect((third["error"] as? String)?.contains("PIN_OR_KEY_MISSING") == true, "third visit: \(third)")
        #expect(status == 0, "hil accessory: \(output)")
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results/central.json"))) as? [String: Any])
        let checks = try #require((activity["steps"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        #expect(checks.map { $0["key"] as? String } == ["pair_within_ms", "reencrypt_with_bond"] && checks.allSatisfy { $0["passed"] as? Bool == true }, "\(checks)")
        let details = (activity["events"] as? [[String: Any]] ?? []).compactMap { $0["detail"] as? String }
        #expect(details.contains { $0.hasPrefix("forget: forgot the bond with D0:D1:D2:D3:D4:D5") }, "\(details)")
    }

    /// What one visit of Bumble's secure central made of a `require_pairing` plan on the served air.
    struct PairingVisit {
        var bumble: [String: Any]
        var bumbleOutput: String
        var status: Int32?
        var output: String
        var activity: [String: Any]
        /// The details of the accessory's recorded events.
        var details: [String] { (activity["events"] as? [[String: Any]] ?? []).compactMap { $0["detail"] as? String } }
    }

    /// Plays an accessory named `name` with `security` (a profile's security block) and a plan that asks for
    /// pairing at once, while Bumble's secure central connects, pairs with `method` and reads the battery level.
    static func pairOnce(name: String, security: String, method: [String], scratch: String) async throws -> PairingVisit {
        let out = try TemporaryDirectory.make(scratch)
        defer { TemporaryDirectory.remove(out) }
        let profile = out.appendingPathComponent("profile.json"), plan = out.appendingPathComponent("plan.json")
        try #"{"name": "\#(name)", "services": [{"profile": "battery"}], "security": \#(security)}"#.write(to: profile, atomically: true, encoding: .utf8)
        try #"{"steps": [{"name": "pair", "after_connect_ms": 0, "do": "require_pairing", "expect": {"pair_within_ms": 10000}}]}"#
            .write(to: plan, atomically: true, encoding: .utf8)
        let central = repositoryRoot.appendingPathComponent("scripts/peers/bumble-secure-central.py").path
        let box = AppOutput()
        let (status, output) = try await Self.session(profile: profile.path, plan: plan.path, name: name, out: out.appendingPathComponent("results"),
                                                      air: .served) { air in
            let ran = await runProgramCapturing(Self.python, [central, air, "--name", name, "--method"] + method + ["--read-uuid", "2A19", "--timeout", "10"])
            await box.set(ran.stdout, ran.stderr)
        }
        let ran = try #require(await box.value)
        let json = ran.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results/central.json"))) as? [String: Any])
        return PairingVisit(bumble: json, bumbleOutput: ran.stdout + " " + ran.stderr.suffix(300), status: status, output: output, activity: activity)
    }

    /// Passkey Entry: the accessory displays the profile's passkey (its record says so), Bumble's central types it,
    /// and the key is authenticated on both sides; the same central typing a wrong one fails the expectation.
    @Test(arguments: [(123_456, true), (654_321, false)])
    func passkeyPairingNeedsTheDisplayedPasskey(typed: Int, pairs: Bool) async throws {
        let visit = try await Self.pairOnce(name: "HIL-Passkey", security: #"{"pairing": "passkey", "passkey": 123456}"#,
                                            method: ["passkey", "--passkey", "\(typed)"], scratch: "hil-accessory-passkey")
        #expect((visit.bumble["paired"] as? Bool == true) == pairs, "Bumble: \(visit.bumbleOutput)")
        if pairs { #expect(visit.bumble["authenticated"] as? Bool == true && visit.bumble["method"] as? String == "PASSKEY", "\(visit.bumble)") }
        #expect(visit.status == (pairs ? 0 : 1), "hil accessory: \(visit.output)")
        let check = try #require(((visit.activity["steps"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])?.first)
        #expect(check["passed"] as? Bool == pairs, "\(check)")
        #expect(visit.details.contains { $0.hasSuffix(": displays passkey 123456") }, "\(visit.details)")
    }

    /// Numeric Comparison: Bumble's central (DisplayYesNo) pairs with an accessory whose profile asks for it; the
    /// accessory's record and its printed line carry the six digits it confirmed, which are the digits Bumble
    /// computed and displayed on its side (its own g2), and the key is authenticated on both sides.
    @Test func numericComparisonRecordsTheNumberThePhoneShows() async throws {
        let visit = try await Self.pairOnce(name: "HIL-Compare", security: #"{"pairing": "numeric-comparison"}"#,
                                            method: ["numeric-comparison"], scratch: "hil-accessory-numeric")
        #expect(visit.bumble["paired"] as? Bool == true && visit.bumble["authenticated"] as? Bool == true
                && visit.bumble["method"] as? String == "NUMERIC_COMPARISON", "Bumble: \(visit.bumbleOutput)")
        let number = try #require(visit.bumble["number"] as? String, "Bumble compared no number: \(visit.bumble)")
        #expect(number.count == 6 && number.allSatisfy(\.isNumber), "\(number)")
        #expect(visit.status == 0, "hil accessory: \(visit.output)")
        let compared = visit.details.filter { $0.contains("compares") }
        #expect(compared.count == 1 && compared.first?.hasSuffix(": compares \(number): confirmed") == true, "\(visit.details)")
        #expect(visit.output.contains("compares \(number): confirmed"), "hil accessory printed: \(visit.output)")
    }

    /// The secure central's visits, in order.
    actor Visits {
        var all: [(stdout: String, stderr: String)] = []
        func add(_ stdout: String, _ stderr: String) { all.append((stdout, stderr)) }
    }
}
