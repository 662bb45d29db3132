import CBlueZ

/// What `ioctl(HCIGETDEVINFO)` says about one adapter (`struct hci_dev_info` of `<bluetooth/hci.h>`, 92 bytes).
package struct HCIDeviceInfo: Hashable, Sendable, Codable {
    /// `HCI_UP`, `HCI_INIT`, … : bit numbers of `hci_dev_info.flags` (`<bluetooth/hci.h>`).
    package static let flagNames: [(bit: Int, name: String)] = [
        (HCI_UP, "UP"), (HCI_INIT, "INIT"), (HCI_RUNNING, "RUNNING"), (HCI_PSCAN, "PSCAN"), (HCI_ISCAN, "ISCAN"),
        (HCI_AUTH, "AUTH"), (HCI_ENCRYPT, "ENCRYPT"), (HCI_INQUIRY, "INQUIRY"), (HCI_RAW, "RAW"),
    ]
    /// `HCI_VIRTUAL` (0), `HCI_USB` (1), … `HCI_VIRTIO` (10): the low nibble of `hci_dev_info.type`, by value.
    package static let busNames = ["VIRTUAL", "USB", "PCCARD", "UART", "RS232", "PCI", "SDIO", "SPI", "I2C", "SMD", "VIRTIO"]

    package var index: Int
    /// `hci0`.
    package var name: String
    /// As the kernel stores it: little-endian; `address` gives the usual text.
    package var addressBytes: [UInt8]
    package var flags: UInt32
    package var type: UInt8
    package var aclMTU: UInt16
    package var aclPackets: UInt16

    package init(index: Int, name: String, addressBytes: [UInt8], flags: UInt32, type: UInt8, aclMTU: UInt16 = 0, aclPackets: UInt16 = 0) {
        self.index = index
        self.name = name
        self.addressBytes = addressBytes
        self.flags = flags
        self.type = type
        self.aclMTU = aclMTU
        self.aclPackets = aclPackets
    }

    /// Decodes the kernel's structure; nil when `bytes` is shorter than it.
    package init?(bytes: [UInt8]) {
        guard bytes.count >= HCISocketABI.deviceInfoSize else { return nil }
        self.init(bytes.withUnsafeBytes { $0.loadUnaligned(as: hci_dev_info.self) })
    }

    /// The fields of `struct hci_dev_info` this type keeps.
    init(_ info: hci_dev_info) {
        index = Int(info.dev_id)
        name = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        addressBytes = withUnsafeBytes(of: info.bdaddr.b) { Array($0) }
        flags = info.flags
        type = info.type
        aclMTU = info.acl_mtu
        aclPackets = info.acl_pkts
    }

    /// `00:AA:01:00:00:42`.
    package var address: String {
        addressBytes.reversed().map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }.joined(separator: ":")
    }

    /// `HCI_UP` is set.
    package var isUp: Bool { flags & (1 << UInt32(HCI_UP)) != 0 }

    /// `UP RUNNING`, or `DOWN`.
    package var stateText: String {
        let names = Self.flagNames.filter { flags & (1 << UInt32($0.bit)) != 0 }.map(\.name)
        return names.isEmpty ? "DOWN" : (isUp ? "" : "DOWN ") + names.joined(separator: " ")
    }

    /// `USB`, `VIRTUAL`, … (`bus 12` for one this table does not know).
    package var bus: String {
        let code = Int(type & 0x0F)
        return code < Self.busNames.count ? Self.busNames[code] : "bus \(code)"
    }

    /// The `struct hci_dev_info` bytes for these values (what the kernel would return), for tests and
    /// fakes; every byte the type does not keep, padding included, is zero.
    package var bytes: [UInt8] {
        withUnsafeTemporaryAllocation(of: hci_dev_info.self, capacity: 1) { buffer in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            let info = raw.bindMemory(to: hci_dev_info.self)
            // Field by field, in place, so the padding stays zero.
            info[0].dev_id = UInt16(clamping: index)
            withUnsafeMutableBytes(of: &info[0].name) { field in
                // Room for the terminating NUL.
                for (offset, byte) in name.utf8.prefix(field.count - 1).enumerated() { field[offset] = byte }
            }
            withUnsafeMutableBytes(of: &info[0].bdaddr.b) { field in
                for (offset, byte) in addressBytes.prefix(field.count).enumerated() { field[offset] = byte }
            }
            info[0].flags = flags
            info[0].type = type
            info[0].acl_mtu = aclMTU
            info[0].acl_pkts = aclPackets
            return Array(UnsafeRawBufferPointer(raw))
        }
    }
}
