#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The sysfs tree DeviceControl reads and writes, rooted at `path` ("/sys" normally, a temporary
/// directory in tests). All of the port `disable` logic and the hub pairing by `peer` links goes
/// through here, so it is tested against a fake tree.
public struct SysfsRoot: Sendable {
    package let path: String
    /// The kernel release to reason about (`6.1.0-57-amd64`); the running kernel's when not given.
    package let kernelRelease: String

    public init(path: String = "/sys", kernelRelease: String? = nil) {
        self.path = path
        self.kernelRelease = kernelRelease ?? SysfsRoot.runningKernelRelease()
    }

    static func runningKernelRelease() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "" }
        return withUnsafeBytes(of: &name.release) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    package var kernelVersion: KernelVersion? { KernelVersion(release: kernelRelease) }

    /// /sys/bus/usb/devices
    package var usbDevicesDirectory: String { path + "/bus/usb/devices" }

    /// The directory of one hub port: `…/1-1.4:1.0/1-1.4-port2`.
    package func portDirectory(hub: USBLocation, port: Int) -> String {
        usbDevicesDirectory + "/" + hub.sysfsHubInterfaceName + "/" + hub.sysfsPortName(port)
    }

    /// The port's `disable` file (Linux ≥ 5.7 has it; from 6.0 writing 1 keeps the port powered off).
    package func disableFile(hub: USBLocation, port: Int) -> String { portDirectory(hub: hub, port: port) + "/disable" }

    /// How a port of `hub` should be switched on this system: `.sysfs` when the kernel is ≥ 6.0 and the
    /// port's `disable` file exists (the kernel then keeps the port off rather than powering it back),
    /// hub class requests otherwise. The string says why, for the transition's log.
    package func preferredMethod(hub: USBLocation, port: Int) -> (method: HubSwitchMethod, why: String) {
        let file = disableFile(hub: hub, port: port)
        guard let version = kernelVersion else {
            return (.hubRequest, "kernel release '\(kernelRelease)' not understood")
        }
        guard version.keepsDisabledPortsOff else {
            return (.hubRequest, "Linux \(version) < 6.0 powers a disabled port back on")
        }
        guard FileManager.default.fileExists(atPath: file) else {
            return (.hubRequest, "no \(file)")
        }
        return (.sysfs, "Linux \(version) with \(file)")
    }

    /// The `disable` file's value: true when the port is disabled (off).
    package func readDisable(hub: USBLocation, port: Int) throws -> Bool {
        let file = disableFile(hub: hub, port: port)
        let text = try readAttribute(file)
        switch text {
        case "1": return true
        case "0": return false
        default: throw PowerSwitchError(.deviceFailure, "\(file) reads '\(text)', expected 0 or 1")
        }
    }

    /// Writes `1` (disable: power off) or `0` to the port's `disable` file.
    package func writeDisable(hub: USBLocation, port: Int, disabled: Bool) throws {
        try writeAttribute(disableFile(hub: hub, port: port), disabled ? "1" : "0")
    }

    /// The other half of a USB 3 port as the kernel knows it: the port directory's `peer` symlink
    /// (`…/1-1.4-port2/peer -> ../../2-1.4:1.0/2-1.4-port2`). Nil when there is none.
    package func peerPort(hub: USBLocation, port: Int) -> (hub: USBLocation, port: Int)? {
        let link = portDirectory(hub: hub, port: port) + "/peer"
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return nil }
        let name = target.split(separator: "/").last.map(String.init) ?? target
        return USBLocation.parsePortName(name)
    }

    /// Every USB device sysfs lists (not interfaces), with its IDs and serial.
    package func devices() -> [USBPresence] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: usbDevicesDirectory) else { return [] }
        return names.compactMap { name -> USBPresence? in
            guard !name.contains(":"), let location = USBLocation(name) else { return nil }
            return device(at: location)
        }.sorted { $0.location < $1.location }
    }

    /// The device at `location`, if sysfs has it.
    package func device(at location: USBLocation) -> USBPresence? {
        let directory = usbDevicesDirectory + "/" + location.sysfsDeviceName
        guard let vendorText = try? readAttribute(directory + "/idVendor"),
              let productText = try? readAttribute(directory + "/idProduct"),
              let vendor = UInt16(vendorText, radix: 16), let product = UInt16(productText, radix: 16) else { return nil }
        let serial = try? readAttribute(directory + "/serial")
        return USBPresence(location: location, id: USBID(vendor: vendor, product: product), serial: serial)
    }

    /// Whether sysfs has a device at `location`: its directory with the `idVendor` attribute every USB device has
    /// (an interface directory has none). One `access(2)`, for a poller that looks many times a second and needs
    /// presence alone; `device(at:)` reads and parses three attributes.
    package func hasDevice(at location: USBLocation) -> Bool {
        access(usbDevicesDirectory + "/" + location.sysfsDeviceName + "/idVendor", F_OK) == 0
    }

    /// A device's string attribute (`manufacturer`, `product`, `serial`), readable without opening the device.
    package func stringAttribute(_ name: String, of location: USBLocation) -> String? {
        try? readAttribute(usbDevicesDirectory + "/" + location.sysfsDeviceName + "/" + name)
    }

    // MARK: attribute I/O

    func readAttribute(_ file: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            if !FileManager.default.fileExists(atPath: file) {
                throw PowerSwitchError(.notFound, "\(file) does not exist")
            }
            throw PowerSwitchError(.permissionDenied, PermissionAdvice.sysfsRead(file))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func writeAttribute(_ file: String, _ value: String) throws {
        let fd = open(file, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT: throw PowerSwitchError(.notFound, "\(file) does not exist")
            case EACCES, EPERM: throw PowerSwitchError(.permissionDenied, PermissionAdvice.sysfsWrite(file))
            default: throw PowerSwitchError(.deviceFailure, "cannot open \(file): \(String(cString: strerror(code)))")
            }
        }
        defer { close(fd) }
        let bytes = Array(value.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let code = errno
            throw PowerSwitchError(.deviceFailure, "writing '\(value)' to \(file) failed: \(String(cString: strerror(code)))")
        }
    }
}

/// How a hub port is switched.
package enum HubSwitchMethod: String, Sendable, Equatable, CaseIterable {
    /// The port's sysfs `disable` file on Linux ≥ 6.0 where it exists, hub class requests otherwise.
    case auto
    /// Only the sysfs `disable` file.
    case sysfs
    /// Only Set/ClearPortFeature(PORT_POWER) through libusb; the kernel may power the port back.
    case hubRequest = "hub-request"
}
