import Foundation
import Synchronization

/// Writes a btsnoop capture (version 1, datalink 1002 = H4) that Wireshark and tshark read.
///
/// Every packet is written with one `write(2)` as it passes, so a killed process keeps its capture.
public final class BtsnoopWriter: Sendable {
    /// The btsnoop datalink for UART (H4) framing: packets carry their H4 indicator.
    public static let datalinkH4: UInt32 = 1002
    /// The btsnoop timestamp of the Unix epoch: btsnoop counts microseconds from "midnight, January 1st,
    /// 0 AD nominal Gregorian", which readers and writers (Wireshark's wiretap, BlueZ's btsnoop) take as
    /// 0x00dcddb30f2f8000 µs (719,540 days) before 1970. An earlier value, 0x00E03AB44A676000, dated every
    /// capture 30 years ahead.
    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    private let handle: Mutex<FileHandle?>
    public let path: String

    /// Creates (or truncates) the file and writes the header.
    public init(path: String) throws(HCITransportError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let file = FileHandle(forWritingAtPath: path) else {
            throw HCITransportError(.io, "cannot create capture file \(path)")
        }
        var header = Array("btsnoop\0".utf8)
        header += BtsnoopWriter.bigEndian(UInt32(1))
        header += BtsnoopWriter.bigEndian(BtsnoopWriter.datalinkH4)
        file.write(Data(header))
        handle = Mutex(file)
    }

    /// Appends one packet record. `received` is true for controller-to-host packets.
    public func write(_ packet: HCIPacket, received: Bool, at date: Date = Date()) {
        write(packet, received: received, unixMicroseconds: Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Appends one packet record stamped `unixMicroseconds` after 1970 (exact: no floating point between the
    /// clock and the file).
    public func write(_ packet: HCIPacket, received: Bool, unixMicroseconds: Int64) {
        let data = packet.h4Bytes
        var flags: UInt32 = received ? 1 : 0
        if case .command = packet { flags |= 2 }
        if case .event = packet { flags |= 2 }
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

/// Wraps a transport so that every packet in both directions lands in a btsnoop file, stamped on the
/// transport's clock (a simulated bench's virtual time maps onto the wall clock from the moment of wrapping,
/// so a capture's timestamps are what they would have been at real time).
public final class CapturingTransport: HCITransport {
    public let base: any HCITransport
    public let writer: BtsnoopWriter
    public var moniker: String { base.moniker }
    public var clock: LoopClock { base.clock }
    public var sharedLoop: EventLoop? { base.sharedLoop }
    /// The wall clock when wrapped (µs since 1970, rounded once) and the transport's clock then.
    private let origin: (micros: Int64, instant: ContinuousClock.Instant)

    public init(_ base: any HCITransport, writer: BtsnoopWriter) {
        self.base = base
        self.writer = writer
        self.origin = (Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()), base.clock.now)
    }

    /// Now on the wall clock, as the transport's clock tells it, in whole microseconds since 1970: the origin
    /// plus the elapsed time in integers, so a replayed bench stamps its packets at exactly the same offsets.
    private var stamp: Int64 {
        let elapsed = origin.instant.duration(to: clock.now).components
        return origin.micros + elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
    }

    public func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        try base.start(on: loop) { [self] event in
            if case .packet(let packet) = event { writer.write(packet, received: true, unixMicroseconds: stamp) }
            receive(event)
        }
    }

    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        writer.write(packet, received: false, unixMicroseconds: stamp)
        try base.send(packet)
    }

    public func close() {
        base.close()
    }
}
