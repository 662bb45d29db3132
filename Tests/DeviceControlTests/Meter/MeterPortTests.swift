import Foundation
import DeviceControl
import PowerMeters
import Testing

/// A meter named by USB ID and serial is found as the tty cdc_acm made for it, in a sysfs tree shaped as the
/// kernel's (`…/1-1.2:1.0/tty/ttyACM0`); what was looked for and found is said when it is not.
@Suite("Meter port")
struct MeterPortTests {
    static func tty(_ sysfs: FakeSysfs, interface: String, name: String) throws {
        try FileManager.default.createDirectory(atPath: "\(sysfs.devices)/\(interface)/tty/\(name)", withIntermediateDirectories: true)
    }

    @Test("A path is taken as it is")
    func path() throws {
        #expect(try MeterPort.resolve("/dev/ttyACM3") == "/dev/ttyACM3")
    }

    @Test("usb:VID:PID/SERIAL: the tty of the device's first interface that has one")
    func byUSBID() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.addDevice("1-1.2", id: "1915:c00a", serial: "C4F1A2B3")
        try sysfs.addDevice("1-1.3", id: "1915:c00a", serial: "D00D0001")
        try FileManager.default.createDirectory(atPath: "\(sysfs.devices)/1-1.2/1-1.2:1.0", withIntermediateDirectories: true)
        try Self.tty(sysfs, interface: "1-1.2/1-1.2:1.1", name: "ttyACM2")
        try Self.tty(sysfs, interface: "1-1.3/1-1.3:1.1", name: "ttyACM5")
        #expect(try MeterPort.resolve("usb:1915:C00A/C4F1A2B3", sysfs: sysfs.sysfs()) == "/dev/ttyACM2")
        #expect(try MeterPort.resolve("usb:1915:c00a/D00D0001", sysfs: sysfs.sysfs()) == "/dev/ttyACM5")
        #expect(throws: PowerMeterError(.unavailable, "2 USB devices 1915:c00a (1-1.2 (serial C4F1A2B3), 1-1.3 (serial D00D0001)): name one by serial, usb:1915:c00a/SERIAL")) {
            try MeterPort.resolve("usb:1915:c00a", sysfs: sysfs.sysfs())
        }
        #expect(throws: PowerMeterError(.unavailable, "no USB device 1915:c00a with serial NOPE in \(sysfs.devices); found 1-1.2 (serial C4F1A2B3), 1-1.3 (serial D00D0001)")) {
            try MeterPort.resolve("usb:1915:c00a/NOPE", sysfs: sysfs.sysfs())
        }
    }

    @Test("A device without a tty, and monikers that are no USB ID")
    func failures() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.addDevice("2-1", id: "1915:c00a")
        #expect(throws: PowerMeterError(.unavailable, "USB device 1915:c00a at 2-1 has no serial port (is the cdc_acm driver bound to it?)")) {
            try MeterPort.resolve("usb:1915:c00a", sysfs: sysfs.sysfs())
        }
        #expect(throws: PowerMeterError(.unavailable, "no USB device 1915:c00b in \(sysfs.devices)")) {
            try MeterPort.resolve("usb:1915:c00b", sysfs: sysfs.sysfs())
        }
        #expect(throws: PowerMeterError(.unavailable, "'usb:19:c00a' is not usb:VID:PID[/SERIAL] (four hexadecimal digits each, e.g. usb:1915:c00a)")) {
            try MeterPort.resolve("usb:19:c00a", sysfs: sysfs.sysfs())
        }
    }
}
