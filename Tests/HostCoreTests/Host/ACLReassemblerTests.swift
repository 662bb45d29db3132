import Testing
import TestSupport
@testable import HCIPackets
@testable import HostCore

@Suite struct ACLReassemblerTests {
    @Test func singleFragmentPDU() throws {
        var reassembler = ACLReassembler()
        let packet = ACLDataPacket(handle: 1, boundary: .firstFlushable, data: hexBytes("01 00 04 00 0a"))
        #expect(try reassembler.add(packet) == hexBytes("01 00 04 00 0a"))
    }

    @Test func continuationWithoutStartIsAnError() {
        var reassembler = ACLReassembler()
        #expect(throws: HCIDecodingError.self) {
            try reassembler.add(ACLDataPacket(handle: 1, boundary: .continuing, data: [1, 2]))
        }
    }

    @Test func overlongFragmentIsAnError() {
        var reassembler = ACLReassembler()
        #expect(throws: HCIDecodingError.self) {
            try reassembler.add(ACLDataPacket(handle: 1, boundary: .firstFlushable, data: hexBytes("01 00 04 00 0a 0b")))
        }
    }

    @Test func handlesAreIndependent() throws {
        var reassembler = ACLReassembler()
        #expect(try reassembler.add(ACLDataPacket(handle: 1, boundary: .firstFlushable, data: hexBytes("02 00 04 00"))) == nil)
        #expect(try reassembler.add(ACLDataPacket(handle: 2, boundary: .firstFlushable, data: hexBytes("01 00 04 00 ff"))) == hexBytes("01 00 04 00 ff"))
        #expect(try reassembler.add(ACLDataPacket(handle: 1, boundary: .continuing, data: hexBytes("aa bb"))) == hexBytes("02 00 04 00 aa bb"))
    }

    @Test func aclPacketDecodingChecksTheLength() {
        #expect(throws: HCIDecodingError.self) { try ACLDataPacket(decoding: hexBytes("40 20 05 00 01 02")) }
        #expect((try? ACLDataPacket(decoding: hexBytes("40 20 02 00 01 02")))?.data == [1, 2])
    }
}
