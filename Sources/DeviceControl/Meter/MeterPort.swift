import Foundation
import PowerMeters

/// Where a meter's serial port is: a path (`/dev/ttyACM0`, `/dev/serial/by-id/…`), or the meter's USB ID and
/// serial (`usb:1915:c00a/SERIAL`, the serial optional when one such device is plugged in), found through
/// sysfs as the tty the kernel's cdc_acm made for the device's first interface that has one. By USB ID the
/// port stays the same whatever order the meters were plugged in.
package enum MeterPort {
    /// The device path for `port`. Throws `PowerMeterError(.unavailable)` naming what was looked for and what
    /// was found instead.
    package static func resolve(_ port: String, sysfs: SysfsRoot = SysfsRoot()) throws(PowerMeterError) -> String {
        guard port.hasPrefix("usb:") else { return port }
        let spec = port.dropFirst(4)
        let (idText, serial): (Substring, String?) = spec.firstIndex(of: "/").map { (spec[..<$0], String(spec[spec.index(after: $0)...])) } ?? (spec, nil)
        let parts = idText.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && UInt16($0, radix: 16) != nil }) else {
            throw PowerMeterError(.unavailable, "'\(port)' is not usb:VID:PID[/SERIAL] (four hexadecimal digits each, e.g. usb:1915:c00a)")
        }
        let vendor = parts[0].lowercased(), product = parts[1].lowercased()
        let files = FileManager.default
        let directory = sysfs.usbDevicesDirectory
        let names = ((try? files.contentsOfDirectory(atPath: directory)) ?? []).filter { !$0.contains(":") }.sorted()
        func read(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let matching = names.filter { read("\(directory)/\($0)/idVendor") == vendor && read("\(directory)/\($0)/idProduct") == product }
        let chosen = serial.map { wanted in matching.filter { read("\(directory)/\($0)/serial") == wanted } } ?? matching
        let described = matching.map { "\($0) (serial \(read("\(directory)/\($0)/serial") ?? "none"))" }.joined(separator: ", ")
        guard !chosen.isEmpty else {
            let want = "USB device \(vendor):\(product)" + (serial.map { " with serial \($0)" } ?? "")
            throw PowerMeterError(.unavailable, "no \(want) in \(directory)" + (matching.isEmpty ? "" : "; found \(described)"))
        }
        guard chosen.count == 1, let device = chosen.first else {
            throw PowerMeterError(.unavailable, "\(chosen.count) USB devices \(vendor):\(product) (\(described)): name one by serial, usb:\(vendor):\(product)/SERIAL")
        }
        // The interfaces (`1-1.2:1.0`, `1-1.2:1.1`, …) in order; the first with a tty is the meter's port.
        let interfaces = ((try? files.contentsOfDirectory(atPath: "\(directory)/\(device)")) ?? []).filter { $0.hasPrefix(device + ":") }.sorted()
        for interface in interfaces {
            if let tty = ((try? files.contentsOfDirectory(atPath: "\(directory)/\(device)/\(interface)/tty")) ?? []).sorted().first {
                return "/dev/" + tty
            }
        }
        throw PowerMeterError(.unavailable, "USB device \(vendor):\(product) at \(device) has no serial port (is the cdc_acm driver bound to it?)")
    }
}
