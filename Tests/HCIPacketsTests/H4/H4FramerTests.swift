import Testing
import TestSupport
@testable import HCIPackets

@Suite struct H4FramerTests {
    /// Reset command, a Read BD_ADDR Command Complete from btvirt, an ACL packet, an ISO packet.
    static let stream = hexBytes("""
        01 03 0c 00
        04 0e 0a 01 09 10 00 42 00 00 01 aa 00
        02 40 20 05 00 01 00 04 00 0a
        05 01 00 02 00 aa bb
        """)

    static func expected() -> [HCIPacket] {
        [
            .command(HCICommandPacket(opcode: .reset)),
            .event(HCIEventPacket(code: 0x0E, parameters: hexBytes("01 09 10 00 42 00 00 01 aa 00"))),
            .aclData(ACLDataPacket(handle: 0x040, boundary: .firstFlushable, data: hexBytes("01 00 04 00 0a"))),
            .other(indicator: .isoData, bytes: hexBytes("01 00 02 00 aa bb")),
        ]
    }

    @Test func allAtOnce() throws {
        var framer = H4Framer()
        #expect(try framer.feed(Self.stream) == Self.expected())
        #expect(framer.pendingByteCount == 0)
    }

    @Test func oneByteAtATime() throws {
        var framer = H4Framer()
        var packets: [HCIPacket] = []
        for byte in Self.stream { packets += try framer.feed([byte]) }
        #expect(packets == Self.expected())
    }

    @Test(arguments: [2, 3, 5, 7, 11])
    func inChunks(size: Int) throws {
        var framer = H4Framer()
        var packets: [HCIPacket] = []
        var index = 0
        while index < Self.stream.count {
            packets += try framer.feed(Self.stream[index..<min(index + size, Self.stream.count)])
            index += size
        }
        #expect(packets == Self.expected())
    }

    @Test func partialPacketIsHeldBack() throws {
        var framer = H4Framer()
        #expect(try framer.feed(hexBytes("04 0e 0a 01 09")).isEmpty)
        #expect(framer.pendingByteCount == 5)
    }

    @Test func unknownIndicatorNamesByteAndOffset() throws {
        var framer = H4Framer()
        _ = try framer.feed(hexBytes("01 03 0c 00"))
        #expect(throws: H4FramingError.unknownIndicator(byte: 0x7F, offset: 4)) {
            try framer.feed([0x7F, 0x00])
        }
        // The stream is no longer trusted.
        #expect(throws: H4FramingError.self) { try framer.feed(hexBytes("01 03 0c 00")) }
    }

    @Test func oversizedACLLengthIsAnError() throws {
        var framer = H4Framer(maximumDataLength: 1021)
        #expect(throws: H4FramingError.oversizedLength(indicator: .aclData, length: 0xFFFF, limit: 1021, offset: 0)) {
            try framer.feed(hexBytes("02 40 20 ff ff"))
        }
    }

    @Test func errorDescriptionNamesTheByte() {
        let error = H4FramingError.unknownIndicator(byte: 0xAB, offset: 12)
        #expect(error.description.contains("0xAB"))
        #expect(error.description.contains("offset 12"))
    }

    @Test func encodingRoundTrips() throws {
        var framer = H4Framer()
        let bytes = Self.expected().flatMap(\.h4Bytes)
        #expect(bytes == Self.stream)
        #expect(try framer.feed(bytes) == Self.expected())
    }
}
