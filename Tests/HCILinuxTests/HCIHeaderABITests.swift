import CBlueZ
@testable import HCILinux
import Testing

/// HCILinux takes its constants and structures from BlueZ's headers (CBlueZ). They are the kernel's
/// ABI, so the numbers below are fixed: a wrong macro behind a shim function, or a structure read at
/// the wrong place, shows here.
@Suite struct HCIHeaderABITests {
    @Test func socketConstantsAreTheKernelNumbers() {
        #expect(HCISocketABI.addressFamily == 31)
        #expect(HCISocketABI.protocolHCI == 1)
        #expect(HCISocketABI.channelRaw == 0 && HCISocketABI.channelUser == 1)
        #expect(HCISocketABI.deviceNone == 0xFFFF)
        #expect(HCISocketABI.maximumDevices == 16)
        #expect(HCISocketABI.deviceInfoSize == 92)
        #if arch(x86_64) || arch(arm64)
        #expect(HCISocketABI.errnoRFKill == 132 && HCISocketABI.errnoUsers == 87)
        #endif
    }

    /// `_IOW('H', nr, int)` and `_IOR('H', nr, int)`: number in bits 0–7 and 'H' in bits 8–15 on every
    /// Linux; the direction and size bits as asm-generic/ioctl.h puts them on x86-64 and arm64.
    @Test func ioctlRequestsAreTheRightMacros() {
        let requests = [
            (HCISocketABI.ioctlDeviceUp, 201, UInt(0x4004_48C9)), (HCISocketABI.ioctlDeviceDown, 202, 0x4004_48CA),
            (HCISocketABI.ioctlGetDeviceList, 210, 0x8004_48D2), (HCISocketABI.ioctlGetDeviceInfo, 211, 0x8004_48D3),
        ]
        for (request, number, generic) in requests {
            #expect(request & 0xFF == UInt(number) && (request >> 8) & 0xFF == UInt(UInt8(ascii: "H")))
            #if arch(x86_64) || arch(arm64)
            #expect(request == generic)
            #endif
        }
    }

    @Test func socketAddressIsTheCStructure() {
        #expect(MemoryLayout<sockaddr_hci>.size == 6)
        let address = HCISocketAddress(device: 3, channel: HCISocketABI.channelUser)
        let structure = address.sockaddrHCI
        #expect(structure.hci_family == 31 && structure.hci_dev == 3 && structure.hci_channel == 1)
        let passed = address.withSockaddr { pointer, length in Array(UnsafeRawBufferPointer(start: pointer, count: Int(length))) }
        #expect(passed.count == 6 && passed == address.bytes)
    }

    /// `hci_dev_info.type` and `.flags` named as the header numbers them.
    @Test func busAndFlagNamesFollowTheHeader() {
        let buses: [(Int32, String)] = [
            (HCI_VIRTUAL, "VIRTUAL"), (HCI_USB, "USB"), (HCI_PCCARD, "PCCARD"), (HCI_UART, "UART"), (HCI_RS232, "RS232"),
            (HCI_PCI, "PCI"), (HCI_SDIO, "SDIO"), (HCI_SPI, "SPI"), (HCI_I2C, "I2C"), (HCI_SMD, "SMD"), (HCI_VIRTIO, "VIRTIO"),
        ]
        #expect(HCIDeviceInfo.busNames.count == buses.count)
        for (code, name) in buses {
            let info = HCIDeviceInfo(index: 0, name: "hci0", addressBytes: [0, 0, 0, 0, 0, 0], flags: 0, type: UInt8(code))
            #expect(info.bus == name)
        }
        let all = HCIDeviceInfo(index: 0, name: "hci0", addressBytes: [0, 0, 0, 0, 0, 0], flags: 0x1FF, type: 0)
        #expect(all.stateText == "UP INIT RUNNING PSCAN ISCAN AUTH ENCRYPT INQUIRY RAW")
    }

    @Test func decodesABufferLaidOutByTheCStructure() throws {
        var structure = hci_dev_info()
        structure.dev_id = 2
        withUnsafeMutableBytes(of: &structure.name) { field in
            for (offset, byte) in "hci2".utf8.enumerated() { field[offset] = byte }
        }
        structure.bdaddr = bdaddr_t(b: (0x42, 0x00, 0x02, 0x01, 0xAA, 0x00))
        structure.flags = 1 << UInt32(HCI_UP) | 1 << UInt32(HCI_RUNNING)
        structure.type = UInt8(HCI_USB)
        structure.acl_mtu = 192
        structure.acl_pkts = 1
        structure.sco_mtu = 64
        structure.sco_pkts = 8
        structure.stat.byte_rx = 0xDEAD_BEEF
        let bytes = withUnsafeBytes(of: structure) { Array($0) }
        #expect(bytes.count == HCISocketABI.deviceInfoSize)

        let info = try #require(HCIDeviceInfo(bytes: bytes))
        #expect(info.index == 2 && info.name == "hci2" && info.address == "00:AA:01:02:00:42")
        #expect(info.stateText == "UP RUNNING" && info.bus == "USB")
        #expect(info.aclMTU == 192 && info.aclPackets == 1)

        // And back: what `bytes` builds loads as the same structure, the fields it does not keep zero.
        let back = info.bytes.withUnsafeBytes { $0.loadUnaligned(as: hci_dev_info.self) }
        #expect(back.dev_id == 2 && back.flags == structure.flags && back.type == structure.type)
        #expect(back.acl_mtu == 192 && back.acl_pkts == 1 && back.sco_mtu == 0 && back.stat.byte_rx == 0)
        #expect(withUnsafeBytes(of: back.name) { Array($0) } == Array("hci2".utf8) + [0, 0, 0, 0])
        #expect(withUnsafeBytes(of: back.bdaddr.b) { Array($0) } == [0x42, 0x00, 0x02, 0x01, 0xAA, 0x00])
    }

    /// `struct hci_dev_list_req`: `dev_num`, then 8-byte `struct hci_dev_req { dev_id; dev_opt; }` from offset 4.
    @Test func deviceListReadsDevNumEntries() {
        #expect(MemoryLayout<hil_hci_dev_list_req>.offset(of: \.dev_req) == 4)
        var list = hil_hci_dev_list_req()
        #expect(MemoryLayout.size(ofValue: list.dev_req) == 16 * 8)
        withUnsafeMutableBytes(of: &list.dev_req) { raw in
            for (entry, id) in [0, 1, 5, 9].enumerated() {
                raw.storeBytes(of: UInt16(id), toByteOffset: entry * 8, as: UInt16.self)
                raw.storeBytes(of: UInt32.max, toByteOffset: entry * 8 + 4, as: UInt32.self)
            }
        }
        list.dev_num = 3
        #expect(HCISocket.indexes(in: list) == [0, 1, 5])
        list.dev_num = 40 // more than the buffer holds
        #expect(HCISocket.indexes(in: list).count == 16)
    }
}
