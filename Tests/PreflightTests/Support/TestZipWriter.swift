import Foundation
@testable import Preflight

/// A test-only zip writer (stored or fixed-Huffman deflate entries), to build APKs and IPAs in tests.
struct TestZipWriter {
    enum Method { case stored, deflated }

    private(set) var entries: [(name: String, data: Data, method: Method)] = []

    mutating func add(_ name: String, _ data: Data, method: Method = .deflated) {
        entries.append((name, data, method))
    }

    /// The archive's bytes.
    func build() -> Data {
        var out = Data()
        var central = Data()
        for entry in entries {
            let raw = [UInt8](entry.data)
            let payload = entry.method == .stored ? raw : TestDeflater.deflateFixed(raw)
            let crc = CRC32.checksum(raw)
            let name = Data(entry.name.utf8)
            let offset = UInt32(out.count)
            let method: UInt16 = entry.method == .stored ? 0 : 8
            var local = Data()
            local.le32(0x0403_4B50); local.le16(20); local.le16(0x0800); local.le16(method)
            local.le16(0); local.le16(0x5821)  // time, date
            local.le32(crc); local.le32(UInt32(payload.count)); local.le32(UInt32(raw.count))
            local.le16(UInt16(name.count)); local.le16(0)
            out += local + name + Data(payload)

            central.le32(0x0201_4B50); central.le16(0x031E); central.le16(20); central.le16(0x0800); central.le16(method)
            central.le16(0); central.le16(0x5821)
            central.le32(crc); central.le32(UInt32(payload.count)); central.le32(UInt32(raw.count))
            central.le16(UInt16(name.count)); central.le16(0); central.le16(0); central.le16(0); central.le16(0)
            central.le32(0o100644 << 16); central.le32(offset)
            central += name
        }
        let directoryOffset = UInt32(out.count)
        out += central
        var end = Data()
        end.le32(0x0605_4B50); end.le16(0); end.le16(0)
        end.le16(UInt16(entries.count)); end.le16(UInt16(entries.count))
        end.le32(UInt32(central.count)); end.le32(directoryOffset); end.le16(0)
        return out + end
    }
}

extension Data {
    mutating func le16(_ value: UInt16) { append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)]) }
    mutating func le32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) } }
}
