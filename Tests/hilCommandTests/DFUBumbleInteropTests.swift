import Foundation
import Testing
import TestSupport

/// Our MCUmgr client against an accessory nobody here wrote the messages of: Bumble plays it
/// (scripts/peers/bumble-smp-accessory.py), every SMP message read and written by intercreate's `smp` models.
/// `hil dfu` uploads imgtool's image for test, lists, uploads it again to confirm, lists; the octets the accessory
/// stored are the image's, its hash is imgtool's digest, and our last list is the accessory's own account of its
/// slots.
///
/// Separate processes on real time: smpclient's venv (which holds `smp` and Bumble) is made once (pip, minutes);
/// each other bound is a process's start-up and a 3.6 KB upload on a loaded 2-core machine.
@Suite(.tags(.peer, .process)) struct DFUBumbleInteropTests {
    static let name = "HIL-Bumble-SMP"

    /// `hil dfu` on `air` with `arguments`, its JSON answer (it must succeed).
    static func dfu(_ air: String, _ arguments: [String]) async throws -> [String: Any] {
        let ran = try await runToCompletion(try ChildProgram.hilBinary(), ["dfu", air, "--name", name] + arguments + ["--json"], timeout: .seconds(60))
        try #require(ran.status == 0, "hil dfu \(arguments.joined(separator: " ")): \(ran.status.map(String.init) ?? "killed"): \(ran.error)")
        return try #require(try JSONSerialization.jsonObject(with: Data(ran.output.utf8)) as? [String: Any], "\(ran.output)")
    }

    static func slot(_ number: Int, in answer: [String: Any]) -> [String: Any]? {
        (answer["images"] as? [[String: Any]])?.first { $0["slot"] as? Int == number }
    }

    @Test func ourUploadIsWhatTheBumbleAccessoryStoresAndReports() async throws {
        let python = try await SMPClientInteropTests.python()
        let fixtures = repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures")
        let imagePath = fixtures.appendingPathComponent("signed-ecdsa-p256.bin").path
        let image = try Data(contentsOf: URL(fileURLWithPath: imagePath))
        // imgtool's own digest of the image (`imgtool verify`).
        let verify = try String(contentsOf: fixtures.appendingPathComponent("signed-ecdsa-p256.verify.txt"), encoding: .utf8)
        let digest = try #require(verify.split(separator: "\n").first { $0.hasPrefix("Image digest: ") }.map { String($0.dropFirst(14)) })
        let directory = try SimServeCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("slot1.bin")
        let server = try await SimServeCommandTests.serve(directory)
        let air = "unix:" + directory.appendingPathComponent("air").path
        let script = repositoryRoot.appendingPathComponent("scripts/peers/bumble-smp-accessory.py").path
        let peer = try ChildProgram(python, [script, air, "--name", Self.name, "--store", store.path], name: "bumble-smp-accessory")
        var answers: [[String: Any]] = []
        do {
            // 30 s: Python's start-up with Bumble's imports on a loaded machine.
            try #require(await peer.line(within: .seconds(30)) { $0.hasPrefix("READY") } != nil, "the Bumble accessory is not ready: \(peer.standardError)")
            for arguments in [["--image", imagePath, "--test"], ["--list"], ["--image", imagePath, "--confirm"], ["--list"]] {
                answers.append(try await Self.dfu(air, arguments))
            }
        } catch {
            await peer.stop()
            await server.stop()
            throw error
        }
        #expect(await peer.signal(SIGTERM, waitingUpTo: .seconds(10)) == 0, "\(peer.standardError)")
        await peer.drain()
        await server.stop()
        let report = try #require(peer.standardOutput.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
                                  "the Bumble accessory printed no JSON: \(peer.standardOutput) \(peer.standardError)")

        #expect(try Data(contentsOf: store) == image, "the accessory's slot 1 holds other octets than the image")
        let tested = try #require(Self.slot(1, in: answers[1]), "\(answers[1])")
        #expect(tested["hash"] as? String == digest && tested["pending"] as? Bool == true && tested["permanent"] as? Bool == false, "\(tested)")
        let confirmed = try #require(Self.slot(1, in: answers[3]), "\(answers[3])")
        #expect(confirmed["hash"] as? String == digest && confirmed["pending"] as? Bool == true && confirmed["permanent"] as? Bool == true, "\(confirmed)")
        // Each chunk starts where the accessory's last answer left it: every upload runs 0, d0, d0 + d1, … to the end.
        let uploads = try #require(report["uploads"] as? [[String: Int]], "\(report)")
        var expected = 0
        for chunk in uploads {
            if chunk["off"] == 0 { expected = 0 }
            #expect(chunk["off"] == expected, "chunk at \(chunk["off"] ?? -1), the accessory held \(expected): \(uploads)")
            expected += chunk["data"] ?? 0
        }
        #expect(uploads.filter { $0["off"] == 0 }.count == 2 && expected == image.count, "\(uploads)")
        let theirs = try #require(report["images"] as? [[String: Any]])
        let ours = try #require(answers[3]["images"] as? [[String: Any]])
        #expect(ours.count == theirs.count, "ours \(ours), the accessory's \(theirs)")
        for (mine, its) in zip(ours, theirs) {
            for key in ["slot", "version", "hash", "active", "pending", "confirmed", "permanent", "bootable"] {
                #expect("\(mine[key] ?? "none")" == "\(its[key] ?? "none")", "slot \(its["slot"] ?? "?") \(key): ours \(mine[key] ?? "none"), the accessory's \(its[key] ?? "none")")
            }
        }
    }
}
