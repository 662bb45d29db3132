import Testing
import TestSupport
@testable import HCIPackets

/// The LE security commands (Core v5.4 Vol 4 Part E §7.8.22–§7.8.26) byte for byte: opcode, length, and
/// the parameters in the spec's order, keys least significant octet first as given.
@Suite struct EncryptionCommandTests {
    static func h4<C: HCICommand>(_ command: C) -> [UInt8] { HCIPacket.command(command.packet).h4Bytes }
    /// A recognisable key: octets 0x00…0x0F, least significant first.
    static let key: [UInt8] = Array(0...15)
    static let keyHex = "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"

    @Test func leEnableEncryption() {
        let command = LEEnableEncryption(handle: 0x0040, random: 0x0123_4567_89AB_CDEF, ediv: 0x1234, longTermKey: Self.key)
        #expect(Self.h4(command) == hexBytes("01 19 20 1c 40 00 ef cd ab 89 67 45 23 01 34 12 " + Self.keyHex))
        #expect(LEEnableEncryption.completion == .status)
        #expect(HCIOpcode.leEnableEncryption.description == "0x2019 LE Enable Encryption")
    }

    @Test func longTermKeyRequestReplies() throws {
        #expect(Self.h4(LELongTermKeyRequestReply(handle: 0x0040, longTermKey: Self.key)) == hexBytes("01 1a 20 12 40 00 " + Self.keyHex))
        #expect(Self.h4(LELongTermKeyRequestNegativeReply(handle: 0x0040)) == hexBytes("01 1b 20 02 40 00"))
        #expect(LELongTermKeyRequestReply.completion == .complete && LELongTermKeyRequestNegativeReply.completion == .complete)
        // Command Complete returns the handle after Status.
        var reply = HCIReturnParameters(hexBytes("40 00"), opcode: .leLongTermKeyRequestReply)
        #expect(try LELongTermKeyRequestReply.decodeResponse(&reply) == 0x0040)
        var negative = HCIReturnParameters(hexBytes("41 00"), opcode: .leLongTermKeyRequestNegativeReply)
        #expect(try LELongTermKeyRequestNegativeReply.decodeResponse(&negative) == 0x0041)
        var short = HCIReturnParameters(hexBytes("40"), opcode: .leLongTermKeyRequestReply)
        #expect(throws: HCIDecodingError.self) { try LELongTermKeyRequestReply.decodeResponse(&short) }
    }

    @Test func leEncryptAndRand() throws {
        let plaintext = [UInt8](repeating: 0xAA, count: 16)
        #expect(Self.h4(LEEncrypt(key: Self.key, plaintext: plaintext))
                == hexBytes("01 17 20 20 " + Self.keyHex + String(repeating: " aa", count: 16)))
        var encrypted = HCIReturnParameters(Self.key, opcode: .leEncrypt)
        #expect(try LEEncrypt.decodeResponse(&encrypted) == Self.key)
        var short = HCIReturnParameters(Self.key.prefix(15), opcode: .leEncrypt)
        #expect(throws: HCIDecodingError.self) { try LEEncrypt.decodeResponse(&short) }
        #expect(Self.h4(LERand()) == hexBytes("01 18 20 00"))
        var random = HCIReturnParameters(hexBytes("ef cd ab 89 67 45 23 01"), opcode: .leRand)
        #expect(try LERand.decodeResponse(&random) == 0x0123_4567_89AB_CDEF)
    }
}
