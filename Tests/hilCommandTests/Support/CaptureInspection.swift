// Test kind: process — reads captures with tshark and btmon, child processes.
import Foundation
import Testing
import TestSupport

/// What the capture tests look for in a capture file: the keys a bond store holds, as raw octets anywhere in
/// the file, and the key fields Wireshark's own dissectors find in it.
enum CaptureInspection {
    /// "REDACTEDREDACTED" in hex, as tshark and btmon print a redacted 16-octet field.
    static let marker = "52454441435445445245444143544544"

    /// Every key in the bond files of `directory` (each LTK, IRK and CSRK: every 32-hex-digit string in them),
    /// in the order they travel in HCI and SMP (least significant octet first; the files write them most
    /// significant first).
    static func keys(inBondStore directory: URL) throws -> [[UInt8]] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        var keys: [[UInt8]] = []
        for file in files {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(file)))
            collect(json, into: &keys)
        }
        return keys
    }

    private static func collect(_ value: Any, into keys: inout [[UInt8]]) {
        switch value {
        case let text as String where text.count == 32:
            let octets = stride(from: 0, to: 32, by: 2).compactMap { offset -> UInt8? in
                let start = text.index(text.startIndex, offsetBy: offset)
                return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)
            }
            if octets.count == 16 { keys.append(octets.reversed()) }
        case let object as [String: Any]: for item in object.values { collect(item, into: &keys) }
        case let array as [Any]: for item in array { collect(item, into: &keys) }
        default: break
        }
    }

    /// Whether `needle` occurs anywhere in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<start + needle.count].elementsEqual(needle)
        }
    }

    /// The keys of `keys` found in the file at `path`, in either octet order.
    static func keys(_ keys: [[UInt8]], foundIn path: String) throws -> [[UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return keys.filter { contains(bytes, $0) || contains(bytes, $0.reversed()) }
    }

    /// The fields of SMP and HCI that carry a key or pairing value (16 octets or more), as tshark reads them
    /// from the capture at `path`: field name and hex value, one per occurrence. Central Identification's
    /// 8-octet Rand, which tshark also calls `btsmp.random_value`, is not one of them.
    static let keyFields = ["btsmp.long_term_key", "btsmp.id_resolving_key", "btsmp.signature_key", "btsmp.cfm_value",
                            "btsmp.random_value", "btsmp.dhkey_check", "bthci_cmd.le_long_term_key", "bthci_cmd.le_key"]

    static func keyFieldValues(_ path: String) async throws -> [(field: String, value: String)] {
        let rows = try await Tshark.fields(path, keyFields)
        var values: [(field: String, value: String)] = []
        for row in rows {
            for (field, cell) in zip(keyFields, row) {
                for value in cell.split(separator: ",") where value.count >= 32 {
                    values.append((field, String(value).replacingOccurrences(of: ":", with: "")))
                }
            }
        }
        return values
    }

    /// The frames tshark reads from `path`, and those it calls malformed or flags with an error.
    static func decoding(_ path: String) async throws -> (frames: Int, broken: [[String]]) {
        let frames = try await Tshark.fields(path, ["frame.number"]).count
        let broken = try await Tshark.fields(path, ["frame.number", "_ws.col.Info"], filter: "_ws.malformed || _ws.expert.severity == error")
        return (frames, broken)
    }

    /// The records of a btsnoop file, counted by walking its record headers.
    static func recordCount(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 16, count = 0
        while offset + 24 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 24 + length
            count += 1
        }
        return offset == bytes.count ? count : -1
    }

    /// What `btmon -r` (BlueZ's own decoder, Debian bluez) prints for the capture at `path`, or nil without btmon.
    static func btmon(_ path: String) async -> String? {
        guard let btmon = ["/usr/bin/btmon", "/usr/sbin/btmon"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let ran = await runProgramCapturing(btmon, ["-r", path])
        return ran.stdout
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) throws -> Int {
        try #require((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }
}

extension ChildProgram {
    /// The test bundle this process runs from (`swift test` runs `.build/debug/BluetoothHILPackageTests.xctest`),
    /// for `hil run --test-bundle`: the built-in suites without building them again.
    static func testBundle() throws -> String {
        let own = URL(fileURLWithPath: CommandLine.arguments[0])
        if own.pathExtension == "xctest", FileManager.default.isExecutableFile(atPath: own.path) { return own.path }
        let beside = URL(fileURLWithPath: try hilBinary()).deletingLastPathComponent().appendingPathComponent("BluetoothHILPackageTests.xctest").path
        guard FileManager.default.isExecutableFile(atPath: beside) else { throw ChildProgramError("no test bundle at \(own.path) or \(beside)") }
        return beside
    }
}
