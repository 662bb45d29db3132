import Foundation
import TestSupport
import Testing
@testable import HCIPackets
@testable import EventLoops
@testable import HCITransports

/// The Linux monitor format (btsnoop datalink 2001), laid out as BlueZ's doc/btsnoop.rst describes it and
/// read back by tshark (MonitorCaptureTsharkTests): controller indexes, their coming and going, system notes,
/// HCI packets per index.
@Suite struct MonitorCaptureTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hil-\(UUID().uuidString)-\(name)").path
    }

    @Test func recordsCarryTheIndexAndOpcodeInTheirFlags() throws {
        let path = Self.temporaryPath("layout.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try MonitorCapture(path: path, clock: VirtualTime.stepped().clock)
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

    /// Every record is stamped on the capture's clock: the wall clock at the capture's creation plus the clock's
    /// elapsed time, in whole microseconds. On a stepped clock that elapsed time is exactly what the test moved.
    @Test func recordsAreStampedOnTheCapturesClock() async throws {
        try await withSteppedTime { time in
            let path = Self.temporaryPath("stamps.btsnoop")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let capture = try MonitorCapture(path: path, clock: time.clock)
            capture.note("a")
            capture.note("b")
            await time.advance(by: .microseconds(1_500))
            capture.note("c")
            await time.advance(by: .nanoseconds(999))
            capture.note("d")
            capture.writer.close()
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // Records of 24 header octets and a 2-octet note ("a\0"): each one's timestamp at 16 of its own.
            try #require(bytes.count == 16 + 4 * 26, "\(bytes.count) bytes")
            let stamps = (0..<4).map { record -> Int64 in
                let at = 16 + record * 26 + 16
                return bytes[at..<at + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            }
            #expect(stamps[1] - stamps[0] == 0)
            #expect(stamps[2] - stamps[0] == 1_500)
            // Whole microseconds, cut down: 999 ns more is still the same microsecond.
            #expect(stamps[3] - stamps[0] == 1_500)
        }
    }
}
