import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import BenchOperations

/// Doctor checks against a fake /sys, /proc, /dev and /lib tree in a temporary directory.
@Suite struct DoctorChecksTests {
    /// A fake root that removes itself.
    final class FakeRoot {
        let path: String

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("hil-doctor-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func file(_ absolute: String, _ text: String, mode: Int = 0o644) throws {
            let full = path + absolute
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: full))
            chmod(full, mode_t(mode))
        }

        func link(_ absolute: String, to target: String) throws {
            let full = path + absolute
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        }

        /// A USB device at 1-1 with one interface 1-1:1.0, bound to `driver`.
        func usbDevice(_ location: String = "1-1", vendor: String, product: String, deviceClass: String = "e0",
                       devnum: Int = 4, driver: String? = "btusb", nodeMode: Int = 0o664) throws {
            let base = "/sys/bus/usb/devices/\(location)"
            try file("\(base)/idVendor", vendor)
            try file("\(base)/idProduct", product)
            try file("\(base)/bDeviceClass", deviceClass)
            try file("\(base)/bDeviceSubClass", deviceClass == "e0" ? "01" : "00")
            try file("\(base)/bDeviceProtocol", deviceClass == "e0" ? "01" : "00")
            try file("\(base)/busnum", "1")
            try file("\(base)/devnum", "\(devnum)")
            try file("\(base)/serial", "SER1")
            try file("\(base):1.0/bInterfaceClass", deviceClass)
            try file("\(base):1.0/bInterfaceSubClass", "01")
            try file("\(base):1.0/bInterfaceProtocol", "01")
            if let driver { try link("\(base):1.0/driver", to: "../../../../bus/usb/drivers/\(driver)") }
            let node = String(format: "/dev/bus/usb/001/%03d", devnum)
            try file(node, "", mode: nodeMode)
        }

        func environment(release: String = "6.1.0-57-amd64", uid: UInt32 = 1000, groups: [UInt32] = [1000], socketErrno: Int32? = 0,
                         hubs: [DoctorEnvironment.HubFact]? = []) -> DoctorEnvironment {
            DoctorEnvironment(root: path, kernelRelease: release, uid: uid, groups: groups, bluetoothSocketErrno: socketErrno, hubs: hubs)
        }
    }

    @Test func bluetoothdRunningIsAWarningWithTheFix() throws {
        let root = try FakeRoot()
        try root.file("/proc/1/comm", "init")
        try root.file("/proc/812/comm", "bluetoothd")
        try root.link("/sys/class/bluetooth/hci0/device", to: "../../../1-1:1.0")
        let findings = BluetoothdCheck().run(root.environment())
        #expect(findings.count == 1 && findings[0].severity == .warning)
        #expect(findings[0].what.contains("pid 812") && findings[0].what.contains("hci0"))
        #expect(findings[0].fix?.contains("systemctl stop bluetooth") == true)
        try FileManager.default.removeItem(atPath: root.path + "/proc/812")
        #expect(BluetoothdCheck().run(root.environment()).map(\.severity) == [.ok])
    }

    @Test func rfkillSoftAndHardBlocks() throws {
        let root = try FakeRoot()
        try root.file("/sys/class/rfkill/rfkill0/type", "bluetooth")
        try root.file("/sys/class/rfkill/rfkill0/name", "hci0")
        try root.file("/sys/class/rfkill/rfkill0/soft", "1")
        try root.file("/sys/class/rfkill/rfkill0/hard", "0")
        try root.file("/sys/class/rfkill/rfkill1/type", "wlan")
        try root.file("/sys/class/rfkill/rfkill1/soft", "1")
        var findings = RfkillCheck().run(root.environment())
        #expect(findings.count == 1)
        #expect(findings[0].severity == .error && findings[0].fix == "sudo rfkill unblock bluetooth")
        try root.file("/sys/class/rfkill/rfkill0/hard", "1")
        findings = RfkillCheck().run(root.environment())
        #expect(findings[0].what.contains("hard-blocked"))
        #expect(Doctor.benchCannotWork(findings))
    }

    @Test func unreadableUSBNodeGivesTheUdevRule() throws {
        let root = try FakeRoot()
        try root.usbDevice(vendor: "2fe3", product: "000b", nodeMode: 0o600)
        let findings = USBPermissionsCheck().run(root.environment())
        #expect(findings.count == 1 && findings[0].severity == .error)
        #expect(findings[0].what.contains("/dev/bus/usb/001/004"))
        #expect(findings[0].fix?.contains("ATTR{idVendor}==\"2fe3\", ATTR{idProduct}==\"000b\"") == true)
        // World read-write, or root: fine.
        chmod(root.path + "/dev/bus/usb/001/004", 0o666)
        #expect(USBPermissionsCheck().run(root.environment()).map(\.severity) == [.ok])
        chmod(root.path + "/dev/bus/usb/001/004", 0o600)
        #expect(USBPermissionsCheck().run(root.environment(uid: 0)).map(\.severity) == [.ok])
    }

    @Test func kernelVersionAndKernelBluetooth() throws {
        let root = try FakeRoot()
        #expect(KernelVersionCheck().run(root.environment(release: "5.15.0-91-generic")).map(\.severity) == [.warning])
        #expect(KernelVersionCheck().run(root.environment(release: "6.1.0-57-amd64")).map(\.severity) == [.ok])
        #expect(KernelBluetoothCheck().run(root.environment(socketErrno: 0)).map(\.severity) == [.ok])
        let absent = KernelBluetoothCheck().run(root.environment(socketErrno: EAFNOSUPPORT))
        #expect(absent[0].severity == .warning && absent[0].fix?.contains("usb:") == true)
        try root.file("/lib/modules/6.1.0-57-amd64/kernel/net/bluetooth/bluetooth.ko.xz", "")
        let unloaded = KernelBluetoothCheck().run(root.environment(socketErrno: EAFNOSUPPORT))
        #expect(unloaded[0].fix?.contains("modprobe bluetooth") == true)
    }

    @Test func adaptersAndTheirDriversAndFirmware() throws {
        let root = try FakeRoot()
        #expect(AdaptersCheck().run(root.environment()).map(\.severity) == [.error])
        try root.usbDevice(vendor: "0bda", product: "8771", devnum: 5)
        try root.link("/sys/class/bluetooth/hci0/device", to: "../../../bus/usb/devices/1-1:1.0")
        let findings = AdaptersCheck().run(root.environment())
        #expect(findings.contains { $0.severity == .ok && $0.what.contains("USB 1-1 0bda:8771/SER1") && $0.what.contains("driver btusb (hci0)") })
        let firmware = try #require(findings.first { $0.check == "firmware" })
        #expect(firmware.severity == .warning && firmware.what.contains("Realtek RTL8761B needs firmware"))
        #expect(firmware.what.contains("so opening it as usb: fails"))
        #expect(firmware.fix == "sudo apt-get install firmware-realtek (or scripts/install-deps --firmware)")
        // With its files there, usb: loads it: worth knowing, nothing to fix.
        try root.file("/lib/firmware/rtl_bt/rtl8761b_fw.bin", "")
        let loaded = try #require(AdaptersCheck().run(root.environment()).first { $0.check == "firmware" })
        #expect(loaded.severity == .info && loaded.fix == nil)
        #expect(loaded.what.contains("btusb loaded it at probe for hci-socket:N; usb: detaches btusb and loads it itself"))
        // The firmware directories are looked in in order: HIL_FIRMWARE_DIR's, say.
        let other = try FakeRoot()
        try other.usbDevice(vendor: "0bda", product: "8771", devnum: 5)
        try other.file("/opt/firmware/rtl_bt/rtl8761bu_fw.bin", "")
        var environment = other.environment()
        environment.firmwareDirectories = ["/lib/firmware", "/opt/firmware"]
        #expect(AdaptersCheck().run(environment).first { $0.check == "firmware" }?.severity == .info)
        #expect(!Doctor.benchCannotWork(AdaptersCheck().run(root.environment())))
    }

    @Test func aVendorClassKnownDongleIsListedWithTheForcedMoniker() throws {
        let root = try FakeRoot()
        try root.usbDevice(vendor: "0a12", product: "0001", deviceClass: "ff", driver: nil)
        let findings = AdaptersCheck().run(root.environment())
        #expect(findings.first?.what.contains("no kernel driver; vendor class: open it as usb:0a12:0001!") == true)
    }

    @Test func hubsThatSwitchPerPort() throws {
        let root = try FakeRoot()
        #expect(HubsCheck().run(root.environment(hubs: nil)).map(\.severity) == [.info])
        let ganged = [DoctorEnvironment.HubFact(location: "1-1", id: "05e3:0610", switching: "ganged", ports: 4)]
        #expect(HubsCheck().run(root.environment(hubs: ganged)).map(\.severity) == [.warning])
        let perPort = ganged + [DoctorEnvironment.HubFact(location: "1-2", id: "2109:2817", switching: "per-port", ports: 4)]
        let findings = HubsCheck().run(root.environment(hubs: perPort))
        #expect(findings.map(\.severity) == [.ok] && findings[0].what.contains("hub 1-2"))
    }

    @Test func realtekROMFirmwareIsRecognisedFromTheControllerVersion() {
        #expect(FirmwareAdvisor.advice(manufacturer: 93, lmpSubversion: 0x8761, moniker: "usb:0")?.contains("runs its ROM firmware") == true)
        #expect(FirmwareAdvisor.advice(vendor: 0x2357, product: 0x0604, driver: nil, firmwarePresent: true)?
            .contains("usb: loads it itself, at every open and after every USB reset") == true)
        #expect(FirmwareAdvisor.advice(manufacturer: 93, lmpSubversion: 0xDFC6, moniker: "usb:0") == nil)
        #expect(FirmwareAdvisor.advice(manufacturer: 2, lmpSubversion: 0x8761, moniker: "usb:0") == nil)
        #expect(FirmwareAdvisor.need(vendor: 0x8087, product: 0x0032)?.family == "Intel")
        #expect(FirmwareAdvisor.need(vendor: 0x2FE3, product: 0x000B) == nil)
    }
}
