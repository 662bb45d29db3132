import Foundation
import TestSupport
import Testing
@testable import HCI

/// The Linux monitor format (btsnoop datalink 2001), laid out as BlueZ's doc/btsnoop.rst describes it and
/// read back by tshark: controller indexes, their coming and going, system notes, HCI packets per index.
@Suite struct MonitorCaptureTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(UUID().uuidString)-\(name)").path
    }

    @Test func recordsCarryTheIndexAndOpcodeInTheirFlags() throws {
        let path = Self.temporaryPath("layout.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try MonitorCapture(path: path, clock: .real)
        let peer = capture.controller(1, name: "thermometer-long-name")
        peer.added(bus: .usb, address: BDAddress("C0:48:49:4C:00:02"))
        peer.packet(.command(HCICommandPacket(opcode: .reset)), received: false)
        capture.note("hi")
        capture.writer.close()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 1, 0, 0, 0x07, 0xD1]) // version 1, datalink 2001
        // New Index: 16 octets (type, bus, BD_ADDR little-endian, 8-octet name cut at 8); flags 0x0001_0000.
        #expect(Array(bytes[16..<28]) == [0, 0, 0, 16, 0, 0, 0, 16, 0, 1, 0, 0])
        #expect(Array(bytes[40..<56]) == [0x00, 0x01, 0x02, 0x00, 0x4C, 0x49, 0x48, 0xC0] + Array("thermome".utf8))
        // Command packet on index 1: opcode 2, no H4 indicator.
        #expect(Array(bytes[56..<68]) == [0, 0, 0, 3, 0, 0, 0, 3, 0, 1, 0, 2])
        #expect(Array(bytes[80..<83]) == [0x03, 0x0C, 0x00])
        // System note on index 0xFFFF, opcode 12, NUL-terminated.
        #expect(Array(bytes[83..<95]) == [0, 0, 0, 3, 0, 0, 0, 3, 0xFF, 0xFF, 0, 12])
        #expect(Array(bytes[107...]) == Array("hi\0".utf8))
    }

    @Test func tsharkReadsIndexesNotesAndPackets() async throws {
        let path = Self.temporaryPath("tshark.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try MonitorCapture(path: path, clock: .real)
        let central = capture.controller(0, name: "central")
        let peer = capture.controller(1, name: "peer")
        let began = Date()
        capture.note("hil: test begin: PowerOff [thermometer]")
        central.added(bus: .usb, address: BDAddress("00:48:49:4C:00:01"))
        central.opened()
        central.packet(.command(HCICommandPacket(opcode: .reset)), received: false)
        central.packet(.event(HCIEventPacket(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00])), received: true)
        peer.added()
        peer.opened()
        peer.packet(.aclData(ACLDataPacket(handle: 0x40, boundary: .firstFlushable, data: [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00])), received: true)
        capture.note("hil: power: power off")
        peer.closed()
        peer.removed()
        capture.writer.close()
        try #require(Tshark.path != nil, "\(Tshark.missing)")
        let rows = try await Tshark.fields(path, ["frame.time_epoch", "hci_mon.adapter_id", "hci_mon.opcode", "hci_mon.system_note",
                                                  "hci_mon.bd_addr", "hci_mon.adapter_name", "_ws.col.Info"])
        try #require(rows.count == 11 && rows.allSatisfy { $0.count == 7 }, "\(rows)")
        #expect(rows.map { $0[1] } == ["65535", "0", "0", "0", "0", "1", "1", "1", "65535", "1", "1"])
        #expect(rows.map { $0[2] } == ["12", "0", "8", "2", "3", "0", "8", "5", "12", "9", "1"])
        #expect(rows[0][3] == "hil: test begin: PowerOff [thermometer]")
        #expect(rows[8][3] == "hil: power: power off")
        #expect(rows[1][4] == "00:48:49:4c:00:01")
        #expect(rows[1][5] == "central")
        #expect(rows[3][6].contains("Sent Reset"), "\(rows[3])")
        #expect(rows[4][6].contains("Command Complete (Reset)"), "\(rows[4])")
        #expect(rows[7][6].contains("Read Request"), "tshark decodes ATT on the peer's index: \(rows[7])")
        let first = try #require(Double(rows[0][0]))
        #expect(abs(first - began.timeIntervalSince1970) < 1, "tshark dates the first note \(first), written at \(began.timeIntervalSince1970)")
        // A Wireshark user's filter for our notes keeps exactly them.
        let notes = try await Tshark.fields(path, ["hci_mon.system_note"], filter: "hci_mon.system_note contains \"hil:\"")
        #expect(notes.map { $0[0] } == ["hil: test begin: PowerOff [thermometer]", "hil: power: power off"])
    }
}
