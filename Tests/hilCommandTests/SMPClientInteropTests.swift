import Foundation
import Support
import Testing
import TestSupport

/// A client nobody here wrote updates hil's simulated MCUmgr accessory: intercreate's smpclient (with its Bumble
/// transport, scripts/peers/smpclient-venv) uploads imgtool's image over `hil sim serve`'s air, and what it reads
/// back agrees with what our client (`hil dfu … --list`) reads on the same air, slot by slot.
///
/// Separate processes on real time: smpclient's venv is made once (pip, minutes); each other bound is a
/// process's start-up and a simulated bench's boot on a loaded 2-core machine, and a 3.6 KB upload.
@Suite(.tags(.peer, .process)) struct SMPClientInteropTests {
    static func python() async throws -> String {
        let made = try await ChildProcess.run([repositoryRoot.appendingPathComponent("scripts/peers/smpclient-venv").path], deadline: .seconds(540))
        guard made.termination.succeeded else { throw PeerError("scripts/peers/smpclient-venv failed (\(made.termination)): \(made.lastLine)") }
        return made.lastLine
    }

    @Test func smpclientsUploadIsWhatOurClientThenReads() async throws {
        let python = try await Self.python()
        let directory = URL(fileURLWithPath: "/tmp/hil-smpclient-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let airPath = directory.appendingPathComponent("air").path
        let fixtures = repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures")
        let image = fixtures.appendingPathComponent("signed-ecdsa-p256.bin").path
        let verify = try String(contentsOf: fixtures.appendingPathComponent("signed-ecdsa-p256.verify.txt"), encoding: .utf8)
        let digest = try #require(verify.split(separator: "\n").first { $0.hasPrefix("Image digest: ") }.map { String($0.dropFirst(14)) })
        let hil = try ChildProgram.hilBinary()
        let server = try ChildProgram(hil, ["sim", "serve", "--rig", "rigs/simulated-dfu.json", "--listen", "unix:\(airPath)"], name: "hil sim serve")
        do {
            let ready = try #require(await server.line(within: .seconds(10)), "no ready line: \(server.standardError)")
            #expect(ready.text.hasPrefix("serving 2 controllers' air"), "\(ready.text)")

            let script = repositoryRoot.appendingPathComponent("scripts/peers/smpclient-upload.py").path
            let upload = try await runToCompletion(python, [script, "unix:\(airPath)", "HIL-DFU", image], timeout: .seconds(150))
            #expect(upload.status == 0, "\(upload.error)")
            let theirs = try #require(try JSONSerialization.jsonObject(with: Data(upload.output.utf8)) as? [String: Any], "\(upload.output)")
            let offsets = try #require(theirs["offsets"] as? [Int])
            #expect(offsets.last == (try Data(contentsOf: URL(fileURLWithPath: image))).count)
            #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 }, "each answer advances: \(offsets)")
            let after = try #require(theirs["after"] as? [[String: Any]])
            #expect(after.first { $0["slot"] as? Int == 1 }?["hash"] as? String == digest, "\(after)")

            let listed = try await runToCompletion(hil, ["dfu", "unix:\(airPath)", "--name", "HIL-DFU", "--list", "--json"])
            #expect(listed.status == 0, "\(listed.error)")
            let ours = try #require((try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])?["images"] as? [[String: Any]])
            #expect(ours.count == after.count)
            for (mine, its) in zip(ours, after) {
                for key in ["slot", "version", "hash", "active", "pending", "confirmed"] {
                    #expect("\(mine[key] ?? "none")" == "\(its[key] ?? "none")", "slot \(its["slot"] ?? "?") \(key): ours \(mine[key] ?? "none"), smpclient's \(its[key] ?? "none")")
                }
            }
        } catch {
            await server.stop()
            throw error
        }
        #expect(await server.signal(SIGTERM) == 0)
        await server.drain()
    }
}
