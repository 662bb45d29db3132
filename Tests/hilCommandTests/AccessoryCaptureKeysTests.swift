import Foundation
import Testing
import TestSupport

/// `hil accessory` plays a Just Works accessory on `hil sim serve`'s air and `hil pair` pairs with it: neither
/// side's capture holds a key of the bond `hil pair` stored, and the accessory's results directory is its
/// owner's alone; with `--capture-keys` on both, the accessory's capture holds the bond's LTK (its LE Long
/// Term Key Request Reply, and the keys it distributes).
///
/// Separate processes on real time: each bound is a process's start-up (and the air's boot) on a loaded
/// 2-core machine, or a plan that ends by itself.
@Suite(.tags(.process)) struct AccessoryCaptureKeysTests {
    /// One visit: the accessory's capture, the central's capture and the central's bond store's keys.
    static func visit(_ scratch: URL, keep: Bool) async throws -> (accessory: String, central: String, keys: [[UInt8]], out: URL) {
        let profile = scratch.appendingPathComponent("profile.json"), plan = scratch.appendingPathComponent("plan.json")
        try #"{"name": "HIL-Keys", "services": [{"profile": "battery"}], "security": {"pairing": "just-works"}}"#
            .write(to: profile, atomically: true, encoding: .utf8)
        try #"{"steps": [{"name": "pair", "after_connect_ms": 0, "do": "require_pairing", "expect": {"pair_within_ms": 10000}}]}"#
            .write(to: plan, atomically: true, encoding: .utf8)
        let air = try SimServeCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: air) }
        let server = try await SimServeCommandTests.serve(air)
        let transport = "unix:" + air.appendingPathComponent("air").path
        let out = scratch.appendingPathComponent("results-\(keep)")
        let hil = try ChildProgram.hilBinary()
        let keepArguments = keep ? ["--capture-keys"] : []
        let accessory = try ChildProgram(hil, ["accessory", transport, "--profile", profile.path, "--plan", plan.path, "--out", out.path] + keepArguments,
                                         name: "hil accessory")
        // 15 s: the process's start-up and the controller's initialization on a loaded machine.
        guard await accessory.line(within: .seconds(15), where: { $0.contains("advertising \"HIL-Keys\"") }) != nil else {
            await accessory.stop(); await server.stop()
            throw ChildProgramError("hil accessory did not advertise: \(accessory.standardOutput) \(accessory.standardError)")
        }
        let bonds = scratch.appendingPathComponent("bonds-\(keep)")
        let central = scratch.appendingPathComponent("central-\(keep).btsnoop").path
        let paired = try await runToCompletion(hil, ["pair", transport, "--name", "HIL-Keys", "--bonds", bonds.path, "--capture", central] + keepArguments)
        // 30 s: the plan ends once its expectation is decided, then the accessory serves one more second and reports.
        let status = await accessory.exitStatus(within: .seconds(30))
        if status == nil { await accessory.stop() }
        await server.stop()
        try #require(paired.status == 0, "hil pair: \(paired.error)")
        try #require(status == 0, "hil accessory: \(accessory.standardOutput) \(accessory.standardError)")
        let keys = try CaptureInspection.keys(inBondStore: bonds)
        try #require(keys.count >= 3, "the bond store holds \(keys.count) keys")
        return (out.appendingPathComponent("captures/accessory.btsnoop").path, central, keys, out)
    }

    @Test func neitherSidesCaptureHoldsAKeyOfTheBond() async throws {
        let scratch = try TemporaryDirectory.make("hil-accessory-keys")
        defer { TemporaryDirectory.remove(scratch) }
        let visit = try await Self.visit(scratch, keep: false)
        #expect(try CaptureInspection.keys(visit.keys, foundIn: visit.accessory).isEmpty, "a key of the bond is in the accessory's capture")
        #expect(try CaptureInspection.keys(visit.keys, foundIn: visit.central).isEmpty, "a key of the bond is in the central's capture")
        try #require(Tshark.path != nil, "\(Tshark.missing)")
        for capture in [visit.accessory, visit.central] {
            let decoded = try await CaptureInspection.decoding(capture)
            #expect(decoded.frames == (try CaptureInspection.recordCount(capture)) && decoded.broken.isEmpty, "\(capture): \(decoded.broken)")
            let fields = try await CaptureInspection.keyFieldValues(capture)
            #expect(!fields.isEmpty && fields.allSatisfy { $0.value == CaptureInspection.marker }, "\(capture): \(fields)")
        }
        #expect(try CaptureInspection.mode(visit.out.path) == 0o700)
        #expect(try CaptureInspection.mode(visit.out.appendingPathComponent("captures").path) == 0o700)
        for file in ["captures/accessory.btsnoop", "central.json", "junit.xml", "results.json", "report.html", ".run.json"] {
            #expect(try CaptureInspection.mode(visit.out.appendingPathComponent(file).path) == 0o600, "\(file)")
        }
    }

    @Test func captureKeysKeepsTheBondsKeyInTheAccessorysCapture() async throws {
        let scratch = try TemporaryDirectory.make("hil-accessory-keys")
        defer { TemporaryDirectory.remove(scratch) }
        let visit = try await Self.visit(scratch, keep: true)
        #expect(!(try CaptureInspection.keys(visit.keys, foundIn: visit.accessory)).isEmpty, "no key of the bond in the accessory's capture")
        #expect(!(try CaptureInspection.keys(visit.keys, foundIn: visit.central)).isEmpty, "no key of the bond in the central's capture")
    }
}
