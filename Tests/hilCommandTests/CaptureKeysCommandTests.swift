import Foundation
import Testing
import TestSupport

/// The captures of a secured run hold no key, and still decode: `hil pair --capture` against
/// rigs/simulated-secure.json's accessories (Secure Connections with a passkey, legacy Just Works, Numeric
/// Comparison), with the bond store's keys after the pairing as the keys to look for, tshark (Wireshark's
/// dissectors) and btmon (BlueZ's) as the readers; `--capture-keys` keeps them.
///
/// Separate processes on real time; no bound here is about our speed (each `hil` runs to its end).
@Suite(.tags(.process)) struct CaptureKeysCommandTests {
    static let rig = repositoryRoot.appendingPathComponent("rigs/simulated-secure.json").path

    static let accessories: [(name: String, arguments: [String])] = [
        ("HIL-Lock", ["--passkey", "123456"]),
        ("HIL-Sensor", []),
        ("HIL-Badge", ["--method", "numeric-comparison", "--confirm", "yes"]),
    ]

    /// Pairs with `accessory` into a fresh bond store, capturing; returns the store's keys and the capture.
    static func pair(_ accessory: (name: String, arguments: [String]), in scratch: URL, keep: Bool) async throws -> (keys: [[UInt8]], capture: String) {
        let bonds = scratch.appendingPathComponent("bonds-\(accessory.name)-\(keep)")
        let capture = scratch.appendingPathComponent("\(accessory.name)-\(keep).btsnoop").path
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(),
                                            ["pair", "sim:central", "--rig", rig, "--name", accessory.name] + accessory.arguments
                                                + ["--bonds", bonds.path, "--capture", capture] + (keep ? ["--capture-keys"] : []))
        try #require(ran.termination?.exitStatus == 0, "hil pair \(accessory.name): \(ran.stderr)")
        let keys = try CaptureInspection.keys(inBondStore: bonds)
        // The peer's LTK (and for legacy pairing ours), the peer's IRK, our identity's IRK.
        try #require(keys.count >= 3, "\(accessory.name): the bond store holds \(keys.count) keys")
        return (keys, capture)
    }

    @Test(arguments: accessories.indices)
    func aPairingsCaptureHoldsNoKeyOfItsBondAndDecodes(index: Int) async throws {
        let accessory = Self.accessories[index]
        let scratch = try TemporaryDirectory.make("hil-capture-keys")
        defer { TemporaryDirectory.remove(scratch) }
        let (keys, capture) = try await Self.pair(accessory, in: scratch, keep: false)
        #expect(try CaptureInspection.keys(keys, foundIn: capture).isEmpty, "\(accessory.name): a key of the bond store is in the capture")
        #expect(try CaptureInspection.mode(capture) == 0o600)

        try #require(Tshark.path != nil, "\(Tshark.missing)")
        let decoded = try await CaptureInspection.decoding(capture)
        #expect(decoded.frames == (try CaptureInspection.recordCount(capture)) && decoded.frames > 0)
        #expect(decoded.broken.isEmpty, "\(accessory.name): tshark finds malformed packets: \(decoded.broken)")
        let fields = try await CaptureInspection.keyFieldValues(capture)
        #expect(fields.contains { $0.field == "bthci_cmd.le_long_term_key" }, "\(accessory.name): no LE Enable Encryption key field: \(fields)")
        #expect(fields.contains { $0.field == "btsmp.random_value" }, "\(accessory.name): no Pairing Random: \(fields)")
        #expect(fields.allSatisfy { $0.value == CaptureInspection.marker }, "\(accessory.name): fields not redacted: \(fields.filter { $0.value != CaptureInspection.marker })")

        if let btmon = await CaptureInspection.btmon(capture) {
            // Legacy pairing distributes the LTK in SMP (Encryption Information); btmon prints it, redacted.
            if accessory.name == "HIL-Sensor" {
                #expect(btmon.contains("Long term key: \(CaptureInspection.marker)"), "\(btmon.suffix(2000))")
            }
            let lines = btmon.split(separator: "\n").filter { $0.contains("Long term key:") || $0.contains("Identity resolving key:") }
            #expect(lines.allSatisfy { $0.hasSuffix(CaptureInspection.marker) }, "\(lines)")
        }
    }

    @Test(arguments: accessories.indices)
    func captureKeysKeepsTheBondsKey(index: Int) async throws {
        let accessory = Self.accessories[index]
        let scratch = try TemporaryDirectory.make("hil-capture-keys")
        defer { TemporaryDirectory.remove(scratch) }
        let (keys, capture) = try await Self.pair(accessory, in: scratch, keep: true)
        // The LTK is in LE Enable Encryption, whatever the method; for legacy pairing in SMP too.
        #expect(!(try CaptureInspection.keys(keys, foundIn: capture)).isEmpty, "\(accessory.name): no key of the bond store in the capture")
        try #require(Tshark.path != nil, "\(Tshark.missing)")
        let fields = try await CaptureInspection.keyFieldValues(capture)
        #expect(!fields.isEmpty && fields.allSatisfy { $0.value != CaptureInspection.marker }, "\(fields)")
        #expect(try CaptureInspection.mode(capture) == 0o600)
    }
}
