import Foundation
import Testing
@testable import HCIPackets

@Suite("BDAddress")
struct BDAddressTests {
    @Test("parses text most significant first and keeps HCI order")
    func parse() throws {
        let address = try #require(BDAddress("00:AA:01:00:00:42"))
        #expect(address.littleEndianBytes == [0x42, 0x00, 0x00, 0x01, 0xAA, 0x00])
        #expect(address.bigEndianBytes == [0x00, 0xAA, 0x01, 0x00, 0x00, 0x42])
        #expect(address.description == "00:AA:01:00:00:42")
        #expect(address.value == 0x00AA_0100_0042)
    }

    @Test("accepts lowercase and dashes; formats uppercase with colons")
    func caseAndDashes() {
        #expect(BDAddress("c0:ff:ee:12:34:56")?.description == "C0:FF:EE:12:34:56")
        #expect(BDAddress("C0-FF-EE-12-34-56")?.description == "C0:FF:EE:12:34:56")
        #expect(BDAddress("c0:ff:ee:12:34:56") == BDAddress("C0-FF-EE-12-34-56"))
    }

    @Test("round trip through the wire form and text", arguments: [
        "00:00:00:00:00:00", "FF:FF:FF:FF:FF:FF", "00:AA:01:00:00:42", "DE:AD:BE:EF:00:01",
    ])
    func roundTrip(text: String) throws {
        let address = try #require(BDAddress(text))
        #expect(BDAddress(littleEndian: address.littleEndianBytes) == address)
        #expect(BDAddress(address.description) == address)
        #expect(BDAddress(address.value) == address)
        #expect(address.description == text)
    }

    @Test("rejects malformed text", arguments: [
        "", "00:AA:01:00:00", "00:AA:01:00:00:42:11", "0:AA:01:00:00:42", "000:AA:01:00:00:42",
        "00:AA:01:00:00:4G", "00:AA-01:00:00:42", "+0:AA:01:00:00:42", "00AA01000042",
        " 00:AA:01:00:00:42", "00:AA:01:00:00:42 ", "00::AA:01:00:00", "::::::", "00:AA:01:00:00:-4",
        "ＡＡ:AA:01:00:00:42",
    ])
    func rejects(text: String) {
        #expect(BDAddress(text) == nil)
    }

    @Test("wire form must be exactly six octets")
    func wireLength() {
        #expect(BDAddress(littleEndian: [1, 2, 3, 4, 5]) == nil)
        #expect(BDAddress(littleEndian: [1, 2, 3, 4, 5, 6, 7]) == nil)
        #expect(BDAddress(littleEndian: [UInt8]()) == nil)
        #expect(BDAddress(bigEndian: [0, 0xAA, 1, 0, 0, 0x42]) == BDAddress("00:AA:01:00:00:42"))
        #expect(BDAddress.zero.description == "00:00:00:00:00:00")
        #expect(BDAddress.zero.littleEndianBytes.count == 6)
    }

    @Test("random address sub-types from the top two bits")
    func randomKinds() throws {
        let staticAddress = try #require(BDAddress("C5:12:34:56:78:9A"))
        #expect(staticAddress.isStaticRandom)
        #expect(!staticAddress.isResolvablePrivate)
        let rpa = try #require(BDAddress("4A:12:34:56:78:9A"))
        #expect(rpa.isResolvablePrivate && !rpa.isStaticRandom && !rpa.isNonResolvablePrivate)
        let nrpa = try #require(BDAddress("2A:12:34:56:78:9A"))
        #expect(nrpa.isNonResolvablePrivate && !nrpa.isStaticRandom)
        #expect(try #require(BDAddress("FF:FF:FF:FF:FF:FF")).hasValidRandomPart == false)
        #expect(try #require(BDAddress("C0:00:00:00:00:00")).hasValidRandomPart == false)
        #expect(staticAddress.hasValidRandomPart)
    }

    @Test("ordered by numeric value, most significant octet first")
    func ordering() throws {
        let a = try #require(BDAddress("00:00:00:00:00:FF"))
        let b = try #require(BDAddress("00:00:00:00:01:00"))
        let c = try #require(BDAddress("01:00:00:00:00:00"))
        #expect(a < b && b < c)
        #expect([c, a, b].sorted() == [a, b, c])
    }

    @Test("Codable as the string")
    func codable() throws {
        let address = try #require(BDAddress("00:AA:01:00:00:42"))
        let data = try JSONEncoder().encode(address)
        #expect(String(decoding: data, as: UTF8.self) == "\"00:AA:01:00:00:42\"")
        #expect(try JSONDecoder().decode(BDAddress.self, from: data) == address)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BDAddress.self, from: Data("\"00:AA:01\"".utf8))
        }
    }
}
