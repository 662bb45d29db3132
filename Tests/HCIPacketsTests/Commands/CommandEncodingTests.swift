import Testing
import TestSupport
@testable import HCIPackets

/// Command encodings checked byte for byte against the Core spec's layouts (Vol 4 Part E §7) and against
/// what btmon shows BlueZ sending.
@Suite struct CommandEncodingTests {
    static func h4<C: HCICommand>(_ command: C) -> [UInt8] { HCIPacket.command(command.packet).h4Bytes }

    @Test func reset() { #expect(Self.h4(Reset()) == hexBytes("01 03 0c 00")) }
    @Test func readBDADDR() { #expect(Self.h4(ReadBDADDR()) == hexBytes("01 09 10 00")) }
    @Test func readLocalVersion() { #expect(Self.h4(ReadLocalVersionInformation()) == hexBytes("01 01 10 00")) }
    @Test func leReadBufferSizeV2() { #expect(Self.h4(LEReadBufferSizeV2()) == hexBytes("01 60 20 00")) }

    @Test func setEventMaskEnablesTheEventsTheHostHandles() {
        // Disconnection Complete (bit 4), Encryption Change (7), Read Remote Version Complete (11),
        // Hardware Error (15), Data Buffer Overflow (25), Encryption Key Refresh (47), LE Meta (61).
        #expect(Self.h4(SetEventMask()) == hexBytes("01 01 0c 08 90 88 00 02 00 80 00 20"))
    }

    @Test func leSetEventMask() {
        // Bits 0-4 (with LE Long Term Key Request), 6, 9, 11, 12, 16, 17, 18 (LE Scan Request Received,
        // Core v5.4 Vol 4 Part E §7.8.1: octet 2 bit 2), 19.
        #expect(Self.h4(LESetEventMask()) == hexBytes("01 01 20 08 5f 1a 0f 00 00 00 00 00"))
    }

    @Test func leSetScanParameters() {
        #expect(Self.h4(LESetScanParameters(type: .active, interval: 0x0060, window: 0x0030)) == hexBytes("01 0b 20 07 01 60 00 30 00 00 00"))
    }

    @Test func leSetScanEnable() {
        #expect(Self.h4(LESetScanEnable(true, filterDuplicates: true)) == hexBytes("01 0c 20 02 01 01"))
    }

    @Test func disconnect() {
        #expect(Self.h4(Disconnect(handle: 0x0040, reason: .remoteUserTerminatedConnection)) == hexBytes("01 06 04 03 40 00 13"))
        #expect(Disconnect.completion == .status)
    }

    @Test func leCreateConnection() throws {
        let peer = try #require(BDAddress("00:AA:01:01:00:42"))
        let command = LECreateConnection(peerAddress: peer, peerAddressType: .public)
        #expect(Self.h4(command) == hexBytes("01 0d 20 19 10 00 10 00 00 00 42 00 01 01 aa 00 00 18 00 28 00 00 00 2a 00 00 00 00 00"))
        #expect(LECreateConnection.completion == .status)
    }

    @Test func leExtendedCreateConnection() throws {
        let peer = try #require(BDAddress("C0:11:22:33:44:55"))
        let command = LEExtendedCreateConnection(peerAddress: peer, peerAddressType: .random)
        #expect(Self.h4(command) == hexBytes("01 43 20 1a 00 00 01 55 44 33 22 11 c0 01 10 00 10 00 18 00 28 00 00 00 2a 00 00 00 00 00"))
    }

    @Test func leSetAdvertisingParameters() {
        let command = LESetAdvertisingParameters(intervalMin: 0x0030, intervalMax: 0x0060, type: .connectableUndirected)
        #expect(Self.h4(command) == hexBytes("01 06 20 0f 30 00 60 00 00 00 00 00 00 00 00 00 00 07 00"))
    }

    @Test func leSetAdvertisingDataIsPaddedTo31() {
        let bytes = Self.h4(LESetAdvertisingData(hexBytes("02 01 06")))
        #expect(bytes.count == 4 + 32)
        #expect(Array(bytes.prefix(8)) == hexBytes("01 08 20 20 03 02 01 06"))
        #expect(bytes.dropFirst(8).allSatisfy { $0 == 0 })
    }

    @Test func leSetExtendedAdvertisingParameters() {
        let bytes = Self.h4(LESetExtendedAdvertisingParameters(handle: 1, intervalMin: 0x000030, intervalMax: 0x000060))
        #expect(bytes == hexBytes("01 36 20 19 01 13 00 30 00 00 60 00 00 07 00 00 00 00 00 00 00 00 00 7f 01 00 01 00 00"))
    }

    @Test func leSetExtendedScanParametersAndEnable() {
        #expect(Self.h4(LESetExtendedScanParameters()) == hexBytes("01 41 20 08 00 00 01 01 10 00 10 00"))
        #expect(Self.h4(LESetExtendedScanEnable(true, duration: 100)) == hexBytes("01 42 20 06 01 00 64 00 00 00"))
    }

    @Test func leSetExtendedAdvertisingEnable() {
        let command = LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0), .init(handle: 2, duration: 500, maxEvents: 3)])
        #expect(Self.h4(command) == hexBytes("01 39 20 0a 01 02 00 00 00 00 02 f4 01 03"))
    }

    @Test func leConnectionUpdate() {
        let command = LEConnectionUpdate(handle: 0x0001, connection: ConnectionParameters(intervalMin: 6, intervalMax: 12, latency: 0, supervisionTimeout: 100))
        #expect(Self.h4(command) == hexBytes("01 13 20 0e 01 00 06 00 0c 00 00 00 64 00 00 00 00 00"))
    }

    @Test func opcodeFields() {
        #expect(HCIOpcode.leCreateConnection.ogf == 0x08)
        #expect(HCIOpcode.leCreateConnection.ocf == 0x000D)
        #expect(HCIOpcode(ogf: 0x03, ocf: 0x0003) == .reset)
        #expect(HCIOpcode.reset.description == "0x0C03 Reset")
        #expect(HCIOpcode(rawValue: 0xFC01).description == "0xFC01 (vendor-specific)")
        #expect(HCIOpcode(rawValue: 0x2099).description == "0x2099 (unknown command)")
    }

    @Test func returnParametersDecode() throws {
        var reader = HCIReturnParameters(hexBytes("09 00 00 09 f1 05 00 00"), opcode: .readLocalVersionInformation)
        let version = try ReadLocalVersionInformation.decodeResponse(&reader)
        #expect(version.hciVersion.name == "5.0")
        #expect(version.manufacturer.rawValue == 0x05F1)
        var short = HCIReturnParameters(hexBytes("09 00"), opcode: .readLocalVersionInformation)
        #expect(throws: HCIDecodingError.self) { try ReadLocalVersionInformation.decodeResponse(&short) }
    }
}
