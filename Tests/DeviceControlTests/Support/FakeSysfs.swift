import Foundation
@testable import DeviceControl

/// A sysfs tree in a temporary directory, shaped like /sys/bus/usb/devices.
struct FakeSysfs {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fake-sysfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/bus/usb/devices", withIntermediateDirectories: true)
    }

    var devices: String { root + "/bus/usb/devices" }

    func sysfs(kernel: String = "6.1.0-57-amd64") -> SysfsRoot { SysfsRoot(path: root, kernelRelease: kernel) }

    /// A device directory with idVendor/idProduct (and serial).
    func addDevice(_ name: String, id: String, serial: String? = nil) throws {
        let directory = devices + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let parts = id.split(separator: ":")
        try "\(parts[0])\n".write(toFile: directory + "/idVendor", atomically: true, encoding: .utf8)
        try "\(parts[1])\n".write(toFile: directory + "/idProduct", atomically: true, encoding: .utf8)
        if let serial { try "\(serial)\n".write(toFile: directory + "/serial", atomically: true, encoding: .utf8) }
    }

    /// A hub port directory with a `disable` file reading `value`.
    func addPort(hubInterface: String, port: String, disable: String? = "0") throws {
        let directory = devices + "/" + hubInterface + "/" + port
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let disable { try "\(disable)\n".write(toFile: directory + "/disable", atomically: true, encoding: .utf8) }
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: devices + "/" + relative, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}
