import HCIPackets
import EventLoops
/// One test case's capture in the Linux monitor format (btsnoop datalink 2001, as `btmon -w` writes): the
/// central's controller and, on a simulated bench, the accessory's controller as two controller indexes,
/// each appearing (New Index, Open Index) and going (Close Index, Delete Index) as the bench opens, resets,
/// USB-resets and power-cycles it, and text notes (test begin and end, power cuts, resets, the verdict) a
/// Wireshark user filters with `hci_mon.system_note`.
///
/// Every record is stamped on one clock — the bench's, so a simulated bench's virtual time maps onto the
/// wall clock from the moment the capture was created — in whole microseconds.
public final class MonitorCapture: Sendable {
    public let writer: BtsnoopWriter
    public let clock: CaptureClock

    /// Creates the file at `path` (replacing one already there, mode 0600); records are stamped on `clock` from
    /// now; `keys` says whether packets' secret fields are redacted (the default) or kept (`CaptureKeys`).
    public init(path: String, clock: LoopClock, keys: CaptureKeys = .redacted) throws(HCITransportError) {
        writer = try BtsnoopWriter(path: path, datalink: .monitor, keys: keys)
        self.clock = CaptureClock(clock)
    }

    public var path: String { writer.path }

    /// Now, in whole microseconds since 1970 (`CaptureClock`).
    public var stamp: Int64 { clock.now }

    /// A system note (monitor opcode 12), NUL-terminated as btmon writes it.
    public func note(_ text: String) {
        writer.writeMonitor(.systemNote, index: MonitorOpcode.noController, data: Array(text.utf8) + [0], unixMicroseconds: stamp)
    }

    /// Controller `index` of this capture, named `name` (at most 8 octets are kept, as in the monitor's New Index).
    public func controller(_ index: UInt16, name: String) -> Controller {
        Controller(capture: self, index: index, name: name)
    }

    /// One controller index of a monitor capture: what a capturing transport or a simulated controller's tap writes to.
    public struct Controller: Sendable {
        public let capture: MonitorCapture
        public let index: UInt16
        public let name: String

        /// The controller appeared (powered, plugged): New Index with type primary, `bus`, its BD_ADDR if
        /// known, and the name.
        public func added(bus: Bus = .virtual, address: BDAddress? = nil) {
            var payload: [UInt8] = [0x00, bus.rawValue]
            payload += address?.littleEndianBytes ?? [UInt8](repeating: 0, count: 6)
            let nameBytes = Array(name.utf8.prefix(8))
            payload += nameBytes + [UInt8](repeating: 0, count: 8 - nameBytes.count)
            capture.writer.writeMonitor(.newIndex, index: index, data: payload, unixMicroseconds: capture.stamp)
        }

        /// A host opened it: Open Index.
        public func opened() {
            capture.writer.writeMonitor(.openIndex, index: index, data: [], unixMicroseconds: capture.stamp)
        }

        /// Its host closed it, or lost it: Close Index.
        public func closed() {
            capture.writer.writeMonitor(.closeIndex, index: index, data: [], unixMicroseconds: capture.stamp)
        }

        /// It went away (a power cut, a USB reset): Delete Index.
        public func removed() {
            capture.writer.writeMonitor(.deleteIndex, index: index, data: [], unixMicroseconds: capture.stamp)
        }

        /// One packet, host to controller (`received` false) or back.
        public func packet(_ packet: HCIPacket, received: Bool) {
            capture.writer.write(packet, received: received, index: index, unixMicroseconds: capture.stamp)
        }
    }

    /// The bus of a New Index record (Linux `HCI_VIRTUAL`, `HCI_USB`, `HCI_UART`).
    public enum Bus: UInt8, Sendable {
        case virtual = 0
        case usb = 1
        case uart = 3
    }
}
