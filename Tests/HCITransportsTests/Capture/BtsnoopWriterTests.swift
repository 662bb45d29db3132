import Foundation
import TestSupport
import Testing
@testable import HCIPackets
@testable import HCITransports
@testable import HostCore

/// The H4 btsnoop capture, byte by byte; tshark's reading of it is BtsnoopTsharkTests'.
@Suite struct BtsnoopWriterTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(UUID().uuidString)-\(name)").path
    }

    static let packets: [(HCIPacket, Bool)] = [
        (.command(HCICommandPacket(opcode: .reset)), false),
        (.event(HCIEventPacket(code: 0x0E, parameters: hexBytes("01 03 0c 00"))), true),
        (.aclData(ACLDataPacket(handle: 0x40, boundary: .firstNonFlushable, data: hexBytes("01 00 04 00 0a"))), false),
    ]

    @Test func headerAndRecordsFollowTheBtsnoopFormat() throws {
        let path = Self.temporaryPath("format.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopWriter(path: path)
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        for (packet, received) in Self.packets { writer.write(packet, received: received, at: when) }
        // No close: every record must already be on disk, as for a killed process.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == Array("btsnoop\0".utf8))
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 1, 0, 0, 0x03, 0xEA]) // version 1, datalink 1002
        // First record: lengths 4 and 4, flags 2 (sent command), drops 0, timestamp, then 01 03 0c 00.
        #expect(Array(bytes[16..<28]) == [0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 2])
        let micros = bytes[32..<40].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // Wireshark's wiretap (btsnoop.c) subtracts 0x00dcddb30f2f8000 µs to get Unix time.
        #expect(micros == UInt64(1_700_000_000_000_000 + 0x00DC_DDB3_0F2F_8000))
        #expect(Array(bytes[40..<44]) == hexBytes("01 03 0c 00"))
        // Second record's flags: received event = 3.
        #expect(Array(bytes[52..<56]) == [0, 0, 0, 3])
        let expected: Int = 16 + 3 * 24 + 4 + 7 + 10
        #expect(bytes.count == expected)
        writer.close()
    }

    @Test func capturingTransportRecordsBothDirections() async throws {
        try await withSteppedTime { time in
            let path = Self.temporaryPath("capture.btsnoop")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let controller = try ScriptedController { command, _ in ScriptedController.healthy(command) ?? [] }
            // The host's deadlines on the test's stepped clock: the controller answers from its own thread.
            let transport = CapturingTransport(FileDescriptorTransport(moniker: "scripted", fd: controller.hostFD, clock: time.clock),
                                               writer: try BtsnoopWriter(path: path))
            let host = try HCIHost(transport: transport)
            _ = try await host.send(ReadBDADDR())
            await host.close()
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // Header + sent Read BD_ADDR (4 bytes) + received Command Complete (13 bytes).
            let expected: Int = 16 + 24 + 4 + 24 + 13
            #expect(bytes.count == expected)
            // Both stamped on the transport's clock, which stood still: the same microsecond.
            if bytes.count == expected { #expect(Array(bytes[32..<40]) == Array(bytes[60..<68])) }
        }
    }
}
