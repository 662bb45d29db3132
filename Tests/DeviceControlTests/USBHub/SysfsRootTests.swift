import Foundation
import Testing
@testable import DeviceControl

@Suite struct SysfsRootTests {
    @Test func portPathsOfAHubAndOfARootHub() throws {
        let sysfs = SysfsRoot(path: "/x", kernelRelease: "6.1.0")
        #expect(sysfs.disableFile(hub: USBLocation("1-1.4")!, port: 2) == "/x/bus/usb/devices/1-1.4:1.0/1-1.4-port2/disable")
        #expect(sysfs.disableFile(hub: USBLocation("3")!, port: 1) == "/x/bus/usb/devices/3-0:1.0/usb3-port1/disable")
    }

    @Test func linux6WithDisableFileUsesSysfs() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addPort(hubInterface: "1-1.4:1.0", port: "1-1.4-port2")
        let choice = fake.sysfs(kernel: "6.1.0-57-amd64").preferredMethod(hub: USBLocation("1-1.4")!, port: 2)
        #expect(choice.method == .sysfs)
        #expect(choice.why.contains("Linux 6.1"))
    }

    @Test func olderKernelsUseHubRequestsEvenWithTheFile() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addPort(hubInterface: "1-1.4:1.0", port: "1-1.4-port2")
        let choice = fake.sysfs(kernel: "5.15.0-91-generic").preferredMethod(hub: USBLocation("1-1.4")!, port: 2)
        #expect(choice.method == .hubRequest)
        #expect(choice.why == "Linux 5.15 < 6.0 powers a disabled port back on")
    }

    @Test func missingDisableFileUsesHubRequests() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addPort(hubInterface: "1-1.4:1.0", port: "1-1.4-port3")
        let choice = fake.sysfs().preferredMethod(hub: USBLocation("1-1.4")!, port: 2)
        #expect(choice.method == .hubRequest)
        #expect(choice.why.hasPrefix("no ") && choice.why.hasSuffix("1-1.4-port2/disable"))
    }

    @Test func unreadableKernelReleaseUsesHubRequests() {
        let choice = SysfsRoot(path: "/nonexistent", kernelRelease: "weird").preferredMethod(hub: USBLocation("1-1")!, port: 1)
        #expect(choice.method == .hubRequest)
    }

    @Test func writeAndReadDisable() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addPort(hubInterface: "2-0:1.0", port: "usb2-port3")
        let sysfs = fake.sysfs()
        let root = USBLocation("2")!
        #expect(try sysfs.readDisable(hub: root, port: 3) == false)
        try sysfs.writeDisable(hub: root, port: 3, disabled: true)
        #expect(try fake.read("2-0:1.0/usb2-port3/disable") == "1")
        #expect(try sysfs.readDisable(hub: root, port: 3) == true)
        try sysfs.writeDisable(hub: root, port: 3, disabled: false)
        #expect(try fake.read("2-0:1.0/usb2-port3/disable") == "0")
    }

    @Test func garbageInDisableIsAnError() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addPort(hubInterface: "1-1:1.0", port: "1-1-port1", disable: "maybe")
        let error = #expect(throws: PowerSwitchError.self) { try fake.sysfs().readDisable(hub: USBLocation("1-1")!, port: 1) }
        #expect(error?.message.hasSuffix("reads 'maybe', expected 0 or 1") == true)
    }

    @Test func writingAMissingPortIsNotFound() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        let error = #expect(throws: PowerSwitchError.self) { try fake.sysfs().writeDisable(hub: USBLocation("1-9")!, port: 1, disabled: true) }
        #expect(error?.kind == .notFound)
    }

    @Test func readOnlyDisableFileGivesPermissionAdvice() throws {
        guard getuid() != 0 else { return } // root writes anyway; the message is checked by PermissionAdviceTests.
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addPort(hubInterface: "1-1:1.0", port: "1-1-port1")
        chmod(fake.devices + "/1-1:1.0/1-1-port1/disable", 0o444)
        let error = #expect(throws: PowerSwitchError.self) { try fake.sysfs().writeDisable(hub: USBLocation("1-1")!, port: 1, disabled: true) }
        #expect(error?.kind == .permissionDenied)
    }

    @Test func peerLinkNamesTheOtherHalf() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addPort(hubInterface: "1-1.4:1.0", port: "1-1.4-port2")
        try fake.addPort(hubInterface: "2-1.4:1.0", port: "2-1.4-port2")
        try FileManager.default.createSymbolicLink(atPath: fake.devices + "/1-1.4:1.0/1-1.4-port2/peer",
                                                   withDestinationPath: "../../../2-1.4/2-1.4:1.0/2-1.4-port2")
        let peer = fake.sysfs().peerPort(hub: USBLocation("1-1.4")!, port: 2)
        #expect(peer?.hub == USBLocation("2-1.4"))
        #expect(peer?.port == 2)
        #expect(fake.sysfs().peerPort(hub: USBLocation("2-1.4")!, port: 2) == nil)
    }

    @Test func devicesAreListedWithoutInterfaces() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addDevice("usb1", id: "1d6b:0002")
        try fake.addDevice("1-1", id: "0409:55aa")
        try fake.addDevice("1-1.2", id: "2fe3:000b", serial: "ABC123")
        try fake.addPort(hubInterface: "1-1:1.0", port: "1-1-port2")
        let devices = fake.sysfs().devices()
        #expect(devices.map(\.location.description) == ["1", "1-1", "1-1.2"])
        #expect(devices.last == USBPresence(location: USBLocation("1-1.2")!, id: USBID("2fe3:000b")!, serial: "ABC123"))
    }

    /// Presence as Linux's sysfs shows it: a device directory has idVendor, an interface directory (1-1:1.0)
    /// does not, and a device that left has no directory.
    @Test func hasDeviceSeesDevicesNotInterfaces() throws {
        let fake = try FakeSysfs()
        defer { fake.remove() }
        try fake.addDevice("1-1.2", id: "0403:6001", serial: "TWIN-HRM")
        try fake.addPort(hubInterface: "1-1:1.0", port: "1-1-port2")
        let sysfs = fake.sysfs()
        #expect(sysfs.hasDevice(at: USBLocation("1-1.2")!))
        #expect(!sysfs.hasDevice(at: USBLocation("1-1")!), "1-1 has only its interface directory here")
        #expect(!sysfs.hasDevice(at: USBLocation("1-1.3")!))
        try FileManager.default.removeItem(atPath: fake.devices + "/1-1.2")
        #expect(!sysfs.hasDevice(at: USBLocation("1-1.2")!))
    }

    @Test func kernelVersions() {
        #expect(KernelVersion(release: "6.1.0-57-amd64") == KernelVersion(major: 6, minor: 1))
        #expect(KernelVersion(release: "5.19.17")?.keepsDisabledPortsOff == false)
        #expect(KernelVersion(release: "6.0.0")?.keepsDisabledPortsOff == true)
        #expect(KernelVersion(release: "10.2") ?? KernelVersion(major: 0, minor: 0) > KernelVersion(major: 6, minor: 9))
        #expect(KernelVersion(release: "linux") == nil)
    }
}
