import Foundation
import Testing
import Throughput

/// BenchPacket against the bytes Bumble's own bench encoder gives (Fixtures/bumble-bench-packets.json, written by
/// scripts/peers/bumble-bench-packets.py from bumble.apps.bench.Packet).
@Suite struct BenchPacketTests {
    struct Fixture: Decodable {
        struct Entry: Decodable { var what: String; var hex: String }
        var bumble: String
        var packets: [Entry]
    }

    static func fixture() throws -> [(String, [UInt8])] {
        let url = try #require(Bundle.module.url(forResource: "bumble-bench-packets", withExtension: "json", subdirectory: "Fixtures"))
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        return try fixture.packets.map { entry in
            var bytes: [UInt8] = []
            var index = entry.hex.startIndex
            while index < entry.hex.endIndex {
                let next = entry.hex.index(index, offsetBy: 2)
                bytes.append(try #require(UInt8(entry.hex[index..<next], radix: 16)))
                index = next
            }
            return (entry.what, bytes)
        }
    }

    /// The packets the Python script built, in its order.
    static let expected: [BenchPacket] = [
        .reset,
        .sequence(number: 0, timestampMicroseconds: 0, last: false, length: 10),
        .sequence(number: 7, timestampMicroseconds: 123_456, last: true, length: 20),
        .sequence(number: 0x0102_0304, timestampMicroseconds: 0xA0B0_C0D0, last: false, length: 244),
        .ack(number: 41, last: true),
    ]

    @Test("Each packet encodes to Bumble's bytes and decodes back from them")
    func matchesBumble() throws {
        let packets = try Self.fixture()
        #expect(packets.count == Self.expected.count)
        for ((what, bytes), packet) in zip(packets, Self.expected) {
            #expect(packet.encoded == bytes, "\(what)")
            #expect(BenchPacket(decoding: bytes) == packet, "\(what)")
        }
    }

    @Test("Bytes that are no packet decode to nil, as Bumble's receiver ignores them")
    func rejectsGarbage() {
        #expect(BenchPacket(decoding: []) == nil)
        #expect(BenchPacket(decoding: [3]) == nil)
        #expect(BenchPacket(decoding: [1, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(BenchPacket(decoding: [2, 1, 0]) == nil)
    }
}
