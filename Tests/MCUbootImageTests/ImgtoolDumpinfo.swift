import Foundation
import Testing

/// What imgtool's `dumpinfo` printed for a fixture image (Fixtures/*.dumpinfo.txt, scripts/peers/mcuboot-images):
/// the header's fields and each TLV's type, length and data; and the digest `imgtool verify` printed.
struct ImgtoolDumpinfo {
    struct TLV: Equatable {
        var type: UInt16
        var length: Int
        var data: [UInt8]
        var isProtected: Bool
    }

    var fields: [String: String] = [:]
    var tlvs: [TLV] = []
    var verifiedDigest: String?

    static func url(_ name: String, _ ext: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"), "no fixture \(name).\(ext)")
    }

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url(name, "bin"))) }

    /// Reads `NAME.dumpinfo.txt` and `NAME.verify.txt`.
    init(_ name: String) throws {
        let text = try String(contentsOf: Self.url(name, "dumpinfo.txt"), encoding: .utf8)
        var inProtected = false, inHeader = false
        var current: TLV?
        var readingData = false
        func number(_ text: Substring) -> Int? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("0x") ? Int(trimmed.dropFirst(2), radix: 16) : Int(trimmed)
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("####") {
                if let tlv = current { tlvs.append(tlv) }
                current = nil
                readingData = false
                inHeader = trimmed.contains("Image header")
                if trimmed.contains("Protected TLV area") { inProtected = true } else if trimmed.contains("TLV area") { inProtected = false }
                continue
            }
            if trimmed.hasPrefix("----") {
                if let tlv = current { tlvs.append(tlv) }
                current = nil
                readingData = false
                continue
            }
            if inHeader, let colon = trimmed.firstIndex(of: ":") {
                fields[String(trimmed[..<colon])] = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            } else if trimmed.hasPrefix("type:"), let open = trimmed.lastIndex(of: "("), let close = trimmed.lastIndex(of: ")") {
                current = TLV(type: UInt16(number(trimmed[trimmed.index(after: open)..<close]) ?? -1), length: -1, data: [], isProtected: inProtected)
            } else if trimmed.hasPrefix("len:") {
                current?.length = number(trimmed.dropFirst(4)) ?? -1
            } else if trimmed.hasPrefix("data:") || (readingData && trimmed.hasPrefix("0x")) {
                readingData = true
                let words = (trimmed.hasPrefix("data:") ? trimmed.dropFirst(5) : trimmed[...]).split(separator: " ")
                current?.data += words.compactMap { number($0).map(UInt8.init(truncatingIfNeeded:)) }
            }
        }
        let verify = try String(contentsOf: Self.url(name, "verify.txt"), encoding: .utf8)
        verifiedDigest = verify.split(separator: "\n").first { $0.hasPrefix("Image digest: ") }.map { String($0.dropFirst(14)) }
    }

    /// A header field as a number ("0x200", or "RAM_LOAD (0x20)").
    func number(_ field: String) -> Int? {
        guard var text = fields[field] else { return nil }
        if let open = text.lastIndex(of: "("), let close = text.lastIndex(of: ")") { text = String(text[text.index(after: open)..<close]) }
        return text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
    }
}
