import Foundation
@testable import hil
import Testing
import TestSupport

/// Every command that takes `--rig` reads it with the one rig reader first: a bad rig is exit 3, before
/// the command touches a lock, a build, a switch or a controller.
@Suite struct RigArgumentTests {
    /// rigs/simulated.json with `replace` applied to its text, in a scratch directory.
    static func rig(_ scratch: URL, _ name: String, replacing target: String, with replacement: String) throws -> String {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("rigs/simulated.json"), encoding: .utf8)
        let changed = text.replacingOccurrences(of: target, with: replacement)
        #expect(changed != text, "the change applies")
        let path = scratch.appendingPathComponent(name).path
        try Data(changed.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hil-rig-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func runRefusesABadRigBeforeAnythingElse() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let misspelt = try Self.rig(scratch, "misspelt.json", replacing: "\"budgets\"", with: "\"budget\"")
        let noSwitch = try Self.rig(scratch, "no-switch.json", replacing: "\"switch\": \"sim-switch\",\n        \"port\": 1", with: "\"switch\": \"nope\",\n        \"port\": 1")
        for rig in [misspelt, noSwitch] {
            let out = scratch.appendingPathComponent("out-\(URL(fileURLWithPath: rig).lastPathComponent)")
            #expect(await RunCommand.run(Arguments(["--rig", rig, "--out", out.path, "--quiet"])) == .usageError, "\(rig)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "no results directory for a bad rig")
        }
    }

    @Test func infoAndScanRefuseABadRigWhateverTheMoniker() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let good = repositoryRoot.appendingPathComponent("rigs/simulated.json").path
        let bad = try Self.rig(scratch, "port.json", replacing: "\"port\": 1\n", with: "\"port\": 4\n")
        // A usb: moniker does not need the rig, but a rig that is given is checked all the same: with the good
        // rig the command gets as far as the (absent) dongle, exit 2; with the bad one it stops at the rig.
        #expect(await InfoCommand.run(Arguments(["usb:ffff:fffe", "--rig", good, "--timeout", "1"])) == .infrastructureError)
        #expect(await InfoCommand.run(Arguments(["usb:ffff:fffe", "--rig", bad, "--timeout", "1"])) == .usageError)
        // With the good rig a scan gets going (`theGoodRigScans`); with the bad one it stops at the rig.
        #expect(await ScanCommand.run(Arguments(["sim:central", "--rig", bad, "--timeout", "0.2"])) == .usageError)
    }

    @Test func powerRefusesABadRig() async throws {
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("rigs/btvirt-bumble.json"), encoding: .utf8)
        let pidFile = scratch.appendingPathComponent("bumble.pid").path
        let good = scratch.appendingPathComponent("good.json"), bad = scratch.appendingPathComponent("bad.json")
        let safe = text.replacingOccurrences(of: "/tmp/hil-bumble-accessory.pid", with: pidFile)
        try Data(safe.utf8).write(to: good)
        try Data(safe.replacingOccurrences(of: "\"readyPattern\"", with: "\"readyPatern\"").utf8).write(to: bad)
        #expect(await PowerCommand.run(Arguments(["--rig", good.path, "bumble-accessory", "status"])) == .success)
        #expect(await PowerCommand.run(Arguments(["--rig", bad.path, "bumble-accessory", "status"])) == .usageError)
    }
}
