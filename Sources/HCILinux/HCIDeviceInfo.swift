/// What `ioctl(HCIGETDEVINFO)` says about one adapter (`struct hci_dev_info`, 92 bytes).
public struct HCIDeviceInfo: Hashable, Sendable, Codable {
    /// `HCI_UP`, `HCI_INIT`, … : bit numbers of `hci_dev_info.flags` (include/net/bluetooth/hci.h).
    public static let flagNames: [(bit: Int, name: String)] = [
        (0, "UP"), (1, "INIT"), (2, "RUNNING"), (3, "PSCAN"), (4, "ISCAN"), (5, "AUTH"), (6, "ENCRYPT"),
        (7, "INQUIRY"), (8, "RAW"),
    ]
    /// `HCI_VIRTUAL`, `HCI_USB`, … : the low nibble of `hci_dev_info.type`.
    public static let busNames = ["VIRTUAL", "USB", "PCCARD", "UART", "RS232", "PCI", "SDIO", "SPI", "I2C", "SMD", "VIRTIO"]

    public var index: Int
    /// `hci0`.
    public var name: String
    /// As the kernel stores it: little-endian; `address` gives the usual text.
    public var addressBytes: [UInt8]
    public var flags: UInt32
    public var type: UInt8
    public var aclMTU: UInt16
    public var aclPackets: UInt16

    public init(index: Int, name: String, addressBytes: [UInt8], flags: UInt32, type: UInt8, aclMTU: UInt16 = 0, aclPackets: UInt16 = 0) {
        self.index = index
        self.name = name
        self.addressBytes = addressBytes
        self.flags = flags
        self.type = type
        self.aclMTU = aclMTU
        self.aclPackets = aclPackets
    }

    /// Decodes the kernel's structure; nil when `bytes` is shorter than it.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= HCISocketABI.deviceInfoSize else { return nil }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        index = Int(u16(0))
        name = String(decoding: bytes[2..<10].prefix(while: { $0 != 0 }), as: UTF8.self)
        addressBytes = Array(bytes[10..<16])
        flags = u32(16)
        type = bytes[20]
        aclMTU = u16(44)
        aclPackets = u16(46)
    }

    /// `00:AA:01:00:00:42`.
    public var address: String {
        addressBytes.reversed().map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }.joined(separator: ":")
    }

    public var isUp: Bool { flags & 1 != 0 }

    /// `UP RUNNING`, or `DOWN`.
    public var stateText: String {
        let names = Self.flagNames.filter { flags & (1 << UInt32($0.bit)) != 0 }.map(\.name)
        return names.isEmpty ? "DOWN" : (isUp ? "" : "DOWN ") + names.joined(separator: " ")
    }

    /// `USB`, `VIRTUAL`, … (`bus 12` for one this table does not know).
    public var bus: String {
        let code = Int(type & 0x0F)
        return code < Self.busNames.count ? Self.busNames[code] : "bus \(code)"
    }

    /// Little-endian `hci_dev_info` bytes for these values (what the kernel would return), for tests and fakes.
    public var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: HCISocketABI.deviceInfoSize)
        func put16(_ value: UInt16, _ at: Int) { bytes[at] = UInt8(value & 0xFF); bytes[at + 1] = UInt8(value >> 8) }
        put16(UInt16(clamping: index), 0)
        for (offset, byte) in name.utf8.prefix(7).enumerated() { bytes[2 + offset] = byte }
        for (offset, byte) in addressBytes.prefix(6).enumerated() { bytes[10 + offset] = byte }
        put16(UInt16(flags & 0xFFFF), 16)
        put16(UInt16(flags >> 16), 18)
        bytes[20] = type
        put16(aclMTU, 44)
        put16(aclPackets, 46)
        return bytes
    }
}
