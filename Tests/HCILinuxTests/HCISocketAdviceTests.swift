import Foundation
import Roles
import Testing
@testable import HCILinux
#if canImport(Glibc)
import Glibc
#endif

@Suite struct HCISocketAdviceTests {
    @Test func busyTellsToStopBluetoothd() {
        let error = HCISocketAdvice.error(EBUSY, step: .bind, index: 0, moniker: "hci-socket:0")
        #expect(error.message.contains("bind(HCI_CHANNEL_USER) failed with EBUSY"))
        #expect(error.message.contains("systemctl stop bluetooth"))
        #expect(error.message.contains("hci0 is in use"))
    }

    @Test func permissionNamesTheCapability() {
        for code in [EPERM, EACCES] {
            let error = HCISocketAdvice.error(code, step: .bind, index: 1, moniker: "hci-socket:1")
            #expect(error.kind == .permissionDenied)
            #expect(error.message.contains("CAP_NET_ADMIN") && error.message.contains("setcap cap_net_admin+ep"))
        }
    }

    @Test func noBluetoothInTheKernel() {
        let error = HCISocketAdvice.error(EAFNOSUPPORT, step: .socket, index: 0, moniker: "hci-socket:0")
        #expect(error.kind == .unsupported)
        #expect(error.message.contains("no Bluetooth sockets") && error.message.contains("modprobe bluetooth"))
    }

    @Test func missingHeldAndBlockedAdapters() {
        let missing = HCISocketAdvice.error(ENODEV, step: .deviceDown, index: 7, moniker: "hci-socket:7")
        #expect(missing.kind == .notFound && missing.message.contains("there is no adapter hci7"))
        let held = HCISocketAdvice.error(HCISocketABI.errnoUsers, step: .bind, index: 0, moniker: "hci-socket:0")
        #expect(held.message.contains("EUSERS") && held.message.contains("already holds hci0's user channel"))
        let blocked = HCISocketAdvice.error(HCISocketABI.errnoRFKill, step: .bind, index: 0, moniker: "hci-socket:0")
        #expect(blocked.message.contains("ERFKILL") && blocked.message.contains("rfkill unblock bluetooth"))
        let other = HCISocketAdvice.error(EIO, step: .bind, index: 0, moniker: "hci-socket:0")
        #expect(other.kind == .io && other.message.contains("EIO"))
    }

    /// The real call on this machine: either the kernel has no AF_BLUETOOTH (this CI kernel) and says
    /// so, or it has, and a missing adapter is reported as such.
    @Test func openingOnThisKernelGivesATypedAnswer() {
        do {
            let transport = try HCISocketTransport.open(index: 250, moniker: "hci-socket:250")
            transport.close()
            Issue.record("hci-socket:250 opened")
        } catch {
            #expect([.unsupported, .notFound, .permissionDenied].contains(error.kind), "\(error)")
            #expect(error.message.hasPrefix("hci-socket:250: "))
        }
    }
}

@Suite struct HCIDeviceInfoTests {
    @Test func decodesTheKernelStructure() throws {
        var bytes = [UInt8](repeating: 0, count: 92)
        bytes[0] = 2
        for (offset, byte) in "hci2".utf8.enumerated() { bytes[2 + offset] = byte }
        bytes.replaceSubrange(10..<16, with: [0x42, 0x00, 0x02, 0x01, 0xAA, 0x00])
        bytes[16] = 0b101 // UP, RUNNING
        bytes[20] = 0x01 // USB
        bytes[44] = 0xC0; bytes[46] = 0x01 // ACL 192 × 1
        let info = try #require(HCIDeviceInfo(bytes: bytes))
        #expect(info.index == 2 && info.name == "hci2")
        #expect(info.address == "00:AA:01:02:00:42")
        #expect(info.isUp && info.stateText == "UP RUNNING")
        #expect(info.bus == "USB")
        #expect(info.aclMTU == 192 && info.aclPackets == 1)
        #expect(info.bytes == bytes)
    }

    @Test func downAndUnknownBusAndShortBuffers() {
        let down = HCIDeviceInfo(index: 0, name: "hci0", addressBytes: [0, 0, 0, 0, 0, 0], flags: 0, type: 0)
        #expect(down.stateText == "DOWN" && down.bus == "VIRTUAL")
        let odd = HCIDeviceInfo(index: 0, name: "hci0", addressBytes: [0, 0, 0, 0, 0, 0], flags: 1 << 3, type: 0x0C)
        #expect(odd.stateText == "DOWN PSCAN" && odd.bus == "bus 12")
        #expect(HCIDeviceInfo(bytes: [UInt8](repeating: 0, count: 91)) == nil)
    }

    @Test func socketAddressIsFamilyDeviceChannel() {
        let address = HCISocketAddress(device: 3, channel: HCISocketABI.channelUser)
        #expect(address.bytes.count == 6)
        let fields = address.bytes.withUnsafeBytes { raw in (raw.load(fromByteOffset: 0, as: UInt16.self), raw.load(fromByteOffset: 2, as: UInt16.self), raw.load(fromByteOffset: 4, as: UInt16.self)) }
        #expect(fields.0 == 31 && fields.1 == 3 && fields.2 == 1)
    }
}
