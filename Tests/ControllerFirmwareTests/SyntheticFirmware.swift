@testable import ControllerFirmware

/// Epatch and config files built from the format's description (btrtl.h's structures), for the tests.
enum SyntheticFirmware {
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// The extension section's tail: other instructions (each its data, length, opcode), the project ID
    /// instruction (data, 1, 0) and the signature.
    static func tail(projectID: UInt8, before: [[UInt8]] = []) -> [UInt8] {
        before.flatMap { $0 } + [projectID, 1, 0] + RealtekEpatch.extensionSignature
    }

    /// A v1 epatch: for each patch its chip ID and body (the body's last 4 octets are the ones btrtl replaces
    /// with the firmware version), laid out after the tables in order.
    static func v1(version: Int = 0x1122_3344, projectID: UInt8 = 14, patches: [(chipID: Int, body: [UInt8])],
                   tail: [UInt8]? = nil) -> [UInt8] {
        let count = patches.count
        var offset = 14 + 8 * count
        var header = RealtekEpatch.signatureV1 + le32(version) + le16(count)
        header += patches.flatMap { le16($0.chipID) }
        header += patches.flatMap { le16($0.body.count) }
        for patch in patches {
            header += le32(offset)
            offset += patch.body.count
        }
        return header + patches.flatMap(\.body) + (tail ?? Self.tail(projectID: projectID))
    }

    struct Subsection {
        var eco: UInt8
        var priority: UInt8
        var keyID: UInt8 = 0
        var data: [UInt8]
    }

    /// A v2 epatch: sections of an opcode and subsections.
    static func v2(projectID: UInt8 = 25, sections: [(opcode: Int, subsections: [Subsection])]) -> [UInt8] {
        var bytes = RealtekEpatch.signatureV2 + [1, 2, 3, 4, 5, 6, 7, 8] + le32(sections.count)
        for section in sections {
            var body = le16(section.subsections.count) + [0, 0]
            for subsection in section.subsections {
                body += [subsection.eco, subsection.priority, subsection.keyID, 0] + le32(subsection.data.count) + subsection.data
            }
            bytes += le32(section.opcode) + le32(body.count) + body
        }
        return bytes + tail(projectID: projectID)
    }

    /// A config file: the signature, the entries' length, the entries.
    static func config(_ entries: [(offset: Int, data: [UInt8])], signature: Int = 0x8723_AB55) -> [UInt8] {
        let body = entries.flatMap { le16($0.offset) + [UInt8($0.data.count)] + $0.data }
        return le32(signature) + le16(body.count) + body
    }

    static func body(_ count: Int, seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: Int(seed) &+ $0 &* 7) } }
}
