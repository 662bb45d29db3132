import Foundation
import TestSupport
@testable import HCIPackets
@testable import HCITransports

/// Packets written through a real `BtsnoopWriter` and read back record by record, for the redaction tests:
/// each record's data is what a reader of the file gets (in an H4 capture the indicator, then the packet).
enum CapturedRecords {
    /// The literal marker of a 16-octet field, spelled out rather than computed: what the tests expect.
    static let marker16 = Array("REDACTEDREDACTED".utf8)

    /// Sixteen octets that stand for a key: A0 A1 … AF.
    static let key16: [UInt8] = Array(0xA0...0xAF)

    /// The packet an H4 byte string (indicator first) spells, built by hand from the Core spec's layout (Vol 4
    /// Part E §5.4), not by the code under test.
    static func packet(h4 bytes: [UInt8]) throws -> HCIPacket {
        guard let indicator = bytes.first else { throw TestFailure("no bytes") }
        switch indicator {
        case 0x01: return .command(HCICommandPacket(opcode: HCIOpcode(rawValue: UInt16(bytes[1]) | UInt16(bytes[2]) << 8), parameters: Array(bytes[4...])))
        case 0x02: return .aclData(try ACLDataPacket(decoding: bytes[1...]))
        case 0x04: return .event(HCIEventPacket(code: bytes[1], parameters: Array(bytes[3...])))
        default: throw TestFailure("indicator \(indicator)")
        }
    }

    /// Writes `packets` (H4 bytes, direction) to an H4 capture and returns each record's data.
    static func h4(_ packets: [(h4: [UInt8], received: Bool)], keys: CaptureKeys = .redacted) throws -> [[UInt8]] {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopWriter(path: path, keys: keys)
        for (bytes, received) in packets {
            writer.write(try packet(h4: bytes), received: received, unixMicroseconds: 1_700_000_000_000_000)
        }
        writer.close()
        return try records(path).map(\.data)
    }

    /// One packet through an H4 capture: its record's data.
    static func h4(_ bytes: [UInt8], received: Bool = false, keys: CaptureKeys = .redacted) throws -> [UInt8] {
        try h4([(bytes, received)], keys: keys).first ?? []
    }

    /// The records of a btsnoop file: flags and data.
    static func records(_ path: String) throws -> [(flags: UInt32, data: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count >= 16 else { throw TestFailure("\(path): \(bytes.count) octets, no btsnoop header") }
        var records: [(flags: UInt32, data: [UInt8])] = []
        var offset = 16
        while offset + 24 <= bytes.count {
            let length = Int(bigEndian(bytes[offset..<offset + 4]))
            let flags = bigEndian(bytes[offset + 8..<offset + 12])
            guard offset + 24 + length <= bytes.count else { throw TestFailure("\(path): a record runs past the end") }
            records.append((flags, Array(bytes[offset + 24..<offset + 24 + length])))
            offset += 24 + length
        }
        guard offset == bytes.count else { throw TestFailure("\(path): \(bytes.count - offset) octets after the last record") }
        return records
    }

    /// `original` with each of `ranges` replaced by the marker from its first octet.
    static func redacted(_ original: [UInt8], _ ranges: [Range<Int>]) -> [UInt8] {
        var bytes = original
        for range in ranges {
            for (position, index) in range.enumerated() { bytes[index] = marker16[position % 8] }
        }
        return bytes
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(UUID().uuidString)-redaction.btsnoop").path
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
