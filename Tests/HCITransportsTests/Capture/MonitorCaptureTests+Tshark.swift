import Foundation
import TestSupport
import Testing
@testable import HCIPackets
@testable import HCITransports

/// Our monitor captures (btsnoop datalink 2001) as Wireshark's tshark (a child process) reads them: indexes,
/// notes, packets per index, dates on the wall clock, and a Wireshark user's filter for our notes.
@Suite(.tags(.process)) struct MonitorCaptureTsharkTests {
    @Test func tsharkReadsIndexesNotesAndPackets() async throws {
        let path = MonitorCaptureTests.temporaryPath("tshark.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Real time: the test compares the note's date with the wall clock's.
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
        // Within a second of when the test began writing: the note was written microseconds later, and a loaded
        // machine delays that by far less than a second.
        #expect(abs(first - began.timeIntervalSince1970) < 1, "tshark dates the first note \(first), written at \(began.timeIntervalSince1970)")
        // A Wireshark user's filter for our notes keeps exactly them.
        let notes = try await Tshark.fields(path, ["hci_mon.system_note"], filter: "hci_mon.system_note contains \"hil:\"")
        #expect(notes.map { $0[0] } == ["hil: test begin: PowerOff [thermometer]", "hil: power: power off"])
    }
}
