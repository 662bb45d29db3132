import Foundation
import Testing
import TestSupport

/// A client nobody here wrote updates the accessory `hil accessory` plays from an SMP-enabled profile
/// (profiles/mcumgr-update.json, served by Sources/MCUmgr's server): intercreate's smpclient (its Bumble transport,
/// scripts/peers/smpclient-upload.py) lists, uploads imgtool's image, tests it and resets the accessory over
/// `hil sim serve`'s air, then connects again and lists what MCUboot booted; `hil accessory`'s own report of its
/// slots (central.json's `images`) agrees with smpclient's last view, slot by slot.
///
/// Separate processes on real time: smpclient's venv is made once (pip, minutes); each other bound is a process's
/// start-up on a loaded 2-core machine, a 3.6 KB upload and the accessory's reset and 0.5 s swap.
@Suite(.tags(.peer, .process)) struct AccessorySMPInteropTests {
    @Test func smpclientUpdatesThePlayedAccessoryAndItsReportAgrees() async throws {
        let python = try await SMPClientInteropTests.python()
        let fixtures = repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures")
        let image = fixtures.appendingPathComponent("signed-ecdsa-p256.bin").path
        // imgtool's own digest of the image (`imgtool verify`), the reference for every hash below.
        let verify = try String(contentsOf: fixtures.appendingPathComponent("signed-ecdsa-p256.verify.txt"), encoding: .utf8)
        let digest = try #require(verify.split(separator: "\n").first { $0.hasPrefix("Image digest: ") }.map { String($0.dropFirst(14)) })
        let out = try TemporaryDirectory.make("hil-accessory-smp")
        defer { TemporaryDirectory.remove(out) }
        let directory = try SimServeCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await SimServeCommandTests.serve(directory)
        let air = "unix:" + directory.appendingPathComponent("air").path
        let hil = try ChildProgram(try ChildProgram.hilBinary(), ["accessory", air, "--profile", "profiles/mcumgr-update.json", "--out", out.path],
                                   name: "hil accessory")
        let smpclient: (status: Int32?, output: String, error: String)
        do {
            // 15 s: the process's start-up and the controller's initialization on a loaded machine.
            let advertising = await hil.line(within: .seconds(15)) { $0.contains("advertising \"HIL-SMP\"") }
            try #require(advertising != nil, "hil accessory did not advertise: \(hil.standardOutput) \(hil.standardError)")
            let script = repositoryRoot.appendingPathComponent("scripts/peers/smpclient-upload.py").path
            smpclient = try await runToCompletion(python, [script, air, "HIL-SMP", image, "--test-and-reset"], timeout: .seconds(150))
        } catch {
            await hil.stop()
            await server.stop()
            throw error
        }
        #expect(await hil.signal(SIGTERM) == 0, "without a plan, a stop is how hil accessory's run ends: \(hil.standardError)")
        await hil.drain()
        await server.stop()
        try #require(smpclient.status == 0, "\(smpclient.error)")
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(smpclient.output.utf8)) as? [String: Any], "\(smpclient.output)")
        let offsets = try #require(theirs["offsets"] as? [Int])
        #expect(offsets.last == (try Data(contentsOf: URL(fileURLWithPath: image))).count)
        let uploaded = try #require(theirs["after"] as? [[String: Any]])
        #expect(uploaded.first { $0["slot"] as? Int == 1 }?["hash"] as? String == digest, "\(uploaded)")
        let tested = try #require(theirs["tested"] as? [[String: Any]])
        #expect(tested.first { $0["slot"] as? Int == 1 }?["pending"] as? Bool == true, "test marks slot 1 pending: \(tested)")
        // After the reset MCUboot swapped the test image in: it runs, not confirmed (it reverts at the next reset).
        let after = try #require(theirs["rebooted"] as? [[String: Any]])
        let running = try #require(after.first { $0["slot"] as? Int == 0 }, "\(after)")
        #expect(running["hash"] as? String == digest && running["active"] as? Bool == true && running["confirmed"] as? Bool == false, "\(after)")

        let activity = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("central.json"))) as? [String: Any])
        let ours = try #require(activity["images"] as? [[String: Any]], "central.json has no images: \(activity.keys)")
        #expect(ours.count == after.count, "ours \(ours), smpclient's \(after)")
        for (mine, its) in zip(ours, after) {
            for key in ["slot", "version", "hash", "active", "pending", "confirmed", "permanent"] {
                #expect("\(mine[key] ?? "none")" == "\(its[key] ?? "none")", "slot \(its["slot"] ?? "?") \(key): ours \(mine[key] ?? "none"), smpclient's \(its[key] ?? "none")")
            }
        }
    }
}
