import Foundation
import Synchronization

/// Writes a btsnoop capture (version 1) that Wireshark, tshark and btmon read: datalink 1002 (H4, one
/// controller) or 2001 (the Linux monitor: several controllers and notes; see `MonitorCapture`).
///
/// Every record is written with one `write(2)` as it passes, so a killed process keeps its capture.
public final class BtsnoopWriter: Sendable {
    /// The btsnoop timestamp of the Unix epoch: btsnoop counts microseconds from "midnight, January 1st,
    /// 0 AD nominal Gregorian", which readers and writers (Wireshark's wiretap, BlueZ's btsnoop) take as
    /// 0x00dcddb30f2f8000 µs (719,540 days) before 1970. An earlier value, 0x00E03AB44A676000, dated every
    /// capture 30 years ahead.
    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    private let handle: Mutex<FileHandle?>
    public let path: String
    public let datalink: BtsnoopDatalink

    /// Creates (or truncates) the file and writes the header.
    public init(path: String, datalink: BtsnoopDatalink = .h4) throws(HCITransportError) {
        self.path = path
        self.datalink = datalink
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let file = FileHandle(forWritingAtPath: path) else {
            throw HCITransportError(.io, "cannot create capture file \(path)")
        }
        var header = Array("btsnoop\0".utf8)
        header += BtsnoopWriter.bigEndian(UInt32(1))
        header += BtsnoopWriter.bigEndian(datalink.rawValue)
        file.write(Data(header))
        handle = Mutex(file)
    }

    /// Appends one packet record. `received` is true for controller-to-host packets.
    public func write(_ packet: HCIPacket, received: Bool, at date: Date = Date()) {
        write(packet, received: received, unixMicroseconds: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Appends one packet record stamped `unixMicroseconds` after 1970 (exact: no floating point between the
    /// clock and the file); in a monitor capture, as controller `index`.
    public func write(_ packet: HCIPacket, received: Bool, index: UInt16 = 0, unixMicroseconds: Int64) {
        switch datalink {
        case .h4:
            var flags: UInt32 = received ? 1 : 0
            if case .command = packet { flags |= 2 }
            if case .event = packet { flags |= 2 }
            writeRecord(flags: flags, data: packet.h4Bytes, unixMicroseconds: unixMicroseconds)
        case .monitor:
            writeMonitor(MonitorOpcode(packet, received: received), index: index, data: packet.bodyBytes, unixMicroseconds: unixMicroseconds)
        }
    }

    /// Appends one Linux monitor record (`flags` = index << 16 | opcode); ignored in an H4 capture, which
    /// has no place for it.
    public func writeMonitor(_ opcode: MonitorOpcode, index: UInt16, data: [UInt8], unixMicroseconds: Int64) {
        guard datalink == .monitor else { return }
        writeRecord(flags: UInt32(index) << 16 | UInt32(opcode.rawValue), data: data, unixMicroseconds: unixMicroseconds)
    }

    /// One record: original and included length, flags, cumulative drops (0), timestamp, data.
    private func writeRecord(flags: UInt32, data: [UInt8], unixMicroseconds: Int64) {
        let micros = unixMicroseconds + BtsnoopWriter.epochOffset
        var record = BtsnoopWriter.bigEndian(UInt32(data.count))
        record += BtsnoopWriter.bigEndian(UInt32(data.count))
        record += BtsnoopWriter.bigEndian(flags)
        record += BtsnoopWriter.bigEndian(UInt32(0))
        record += BtsnoopWriter.bigEndian(UInt64(bitPattern: micros))
        record += data
        handle.withLock { $0?.write(Data(record)) }
    }

    /// Closes the file; later writes are ignored.
    public func close() {
        handle.withLock { file in
            try? file?.close()
            file = nil
        }
    }

    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
}
