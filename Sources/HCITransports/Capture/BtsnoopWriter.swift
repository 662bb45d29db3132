import Foundation
import Synchronization
import HCIPackets

/// Writes a btsnoop capture (version 1) that Wireshark, tshark and btmon read: datalink 1002 (H4, one
/// controller) or 2001 (the Linux monitor: several controllers and notes; see `MonitorCapture`).
///
/// The file is created mode 0600 from its first byte (`CaptureFile`), and by default every packet's secret
/// fields are overwritten with a marker of the same length before it is written (`CaptureKeys`,
/// `CaptureSecrets`). Every record is written with one `write(2)` as it passes, so a killed process keeps its
/// capture.
public final class BtsnoopWriter: Sendable {
    /// The btsnoop timestamp of the Unix epoch: btsnoop counts microseconds from "midnight, January 1st,
    /// 0 AD nominal Gregorian", which readers and writers (Wireshark's wiretap, BlueZ's btsnoop) take as
    /// 0x00dcddb30f2f8000 µs (719,540 days) before 1970. An earlier value, 0x00E03AB44A676000, dated every
    /// capture 30 years ahead.
    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    /// The file, and the redactor that follows its ACL streams.
    private struct Output {
        var file: CaptureFile
        var redactor = CaptureRedactor()
    }

    /// What a record's data is, for the redactor: a packet of this kind, direction and controller.
    private struct RecordedPacket {
        let indicator: HCIPacketIndicator
        let received: Bool
        let index: UInt16
    }

    private let output: Mutex<Output>
    public let path: String
    public let datalink: BtsnoopDatalink
    /// Whether the capture keeps the keys that pass through it.
    public let keys: CaptureKeys

    /// Creates the file (replacing one already there) and writes the header; `keys` says whether secret fields
    /// are redacted (the default) or kept.
    public convenience init(path: String, datalink: BtsnoopDatalink = .h4, keys: CaptureKeys = .redacted) throws(HCITransportError) {
        try self.init(path: path, datalink: datalink, keys: keys, opening: CaptureFile.systemOpen)
    }

    /// `init(path:datalink:keys:)`, creating the file through `opening` (a test watches the flags and mode).
    init(path: String, datalink: BtsnoopDatalink, keys: CaptureKeys, opening: CaptureFile.Open) throws(HCITransportError) {
        self.path = path
        self.datalink = datalink
        self.keys = keys
        var file = try CaptureFile.create(path, opening: opening)
        var header = Array("btsnoop\0".utf8)
        header += BtsnoopWriter.bigEndian(UInt32(1))
        header += BtsnoopWriter.bigEndian(datalink.rawValue)
        file.write(header)
        output = Mutex(Output(file: file))
    }

    deinit {
        output.withLock { $0.file.close() }
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
            writeRecord(flags: flags, data: packet.bodyBytes, unixMicroseconds: unixMicroseconds,
                        packet: RecordedPacket(indicator: packet.indicator, received: received, index: index))
        case .monitor:
            writeMonitor(MonitorOpcode(packet, received: received), index: index, data: packet.bodyBytes, unixMicroseconds: unixMicroseconds)
        }
    }

    /// Appends one Linux monitor record (`flags` = index << 16 | opcode); ignored in an H4 capture, which
    /// has no place for it. A packet's record (command, event, ACL data) is redacted like any other.
    public func writeMonitor(_ opcode: MonitorOpcode, index: UInt16, data: [UInt8], unixMicroseconds: Int64) {
        guard datalink == .monitor else { return }
        let packet = opcode.packet.map { RecordedPacket(indicator: $0.indicator, received: $0.received, index: index) }
        writeRecord(flags: UInt32(index) << 16 | UInt32(opcode.rawValue), data: data, unixMicroseconds: unixMicroseconds, packet: packet)
    }

    /// One record: original and included length, flags, cumulative drops (0), timestamp, data — a packet's
    /// redacted (unless the keys are kept) and, in an H4 capture, after its indicator. Redacted under the
    /// lock, so that the redactor sees each stream's fragments in the order they are written.
    private func writeRecord(flags: UInt32, data body: [UInt8], unixMicroseconds: Int64, packet: RecordedPacket?) {
        let micros = unixMicroseconds + BtsnoopWriter.epochOffset
        output.withLock { output in
            var data = body
            if let packet {
                if keys == .redacted {
                    data = output.redactor.redact(packet.indicator, body: data, received: packet.received, index: packet.index)
                }
                if datalink == .h4 { data.insert(packet.indicator.rawValue, at: 0) }
            }
            var record = BtsnoopWriter.bigEndian(UInt32(data.count))
            record += BtsnoopWriter.bigEndian(UInt32(data.count))
            record += BtsnoopWriter.bigEndian(flags)
            record += BtsnoopWriter.bigEndian(UInt32(0))
            record += BtsnoopWriter.bigEndian(UInt64(bitPattern: micros))
            record += data
            output.file.write(record)
        }
    }

    /// Closes the file; later writes are ignored.
    public func close() {
        output.withLock { $0.file.close() }
    }

    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
}
