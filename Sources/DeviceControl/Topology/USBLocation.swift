/// Where a USB device sits: bus and the chain of hub ports to it, written `bus-port.port…`
/// (`1-1.4.2`), as Linux names devices in sysfs. A root hub has no ports and is written `1`.
///
/// Hubs are named by location, never by device number: device numbers change on every re-enumeration.
package struct USBLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Bus number, 1…255.
    package let bus: Int
    /// Port numbers from the root hub down, each 1…255, at most 7 deep (USB's hub chain limit).
    package let ports: [Int]

    package init?(bus: Int, ports: [Int]) {
        guard (1...255).contains(bus), ports.count <= 7, ports.allSatisfy({ (1...255).contains($0) }) else { return nil }
        self.bus = bus
        self.ports = ports
    }

    /// Parses `1-1.4.2`, `1` (a root hub) or `usb1` (sysfs's name for a root hub).
    package init?(_ text: String) {
        var body = Substring(text)
        if body.hasPrefix("usb") { body = body.dropFirst(3); guard !body.contains("-") else { return nil } }
        let halves = body.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let busText = halves.first, let bus = Self.number(busText) else { return nil }
        var ports: [Int] = []
        if halves.count == 2 {
            for part in halves[1].split(separator: ".", omittingEmptySubsequences: false) {
                guard let port = Self.number(part) else { return nil }
                ports.append(port)
            }
            guard !ports.isEmpty else { return nil }
        }
        self.init(bus: bus, ports: ports)
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 3, text.allSatisfy({ $0.isASCII && $0.isNumber }), text.first != "0" else { return nil }
        return Int(text)
    }

    package var isRootHub: Bool { ports.isEmpty }

    package var description: String {
        ports.isEmpty ? "\(bus)" : "\(bus)-" + ports.map(String.init).joined(separator: ".")
    }

    /// The device behind `port` of this hub.
    package func child(port: Int) -> USBLocation? { USBLocation(bus: bus, ports: ports + [port]) }

    /// The hub this device is plugged into (nil for a root hub).
    package var parent: USBLocation? {
        guard !ports.isEmpty else { return nil }
        return USBLocation(bus: bus, ports: Array(ports.dropLast()))
    }

    /// The port of the parent hub this device is on.
    package var portOnParent: Int? { ports.last }

    /// True when `self` is `other` or sits anywhere below it.
    package func isWithin(_ other: USBLocation) -> Bool {
        bus == other.bus && ports.count >= other.ports.count && Array(ports.prefix(other.ports.count)) == other.ports
    }

    /// The port path without the bus (`1.4.2`), what a USB 3 hub's two halves share across buses.
    package var portPath: String { ports.map(String.init).joined(separator: ".") }

    // MARK: sysfs names

    /// The device's directory name under /sys/bus/usb/devices: `1-1.4` or `usb1`.
    package var sysfsDeviceName: String { ports.isEmpty ? "usb\(bus)" : description }
    /// The hub interface's directory name: `1-1.4:1.0`, or `1-0:1.0` for a root hub.
    package var sysfsHubInterfaceName: String { ports.isEmpty ? "\(bus)-0:1.0" : "\(description):1.0" }
    /// A hub port's directory name inside the hub interface: `1-1.4-port2`, or `usb1-port2`.
    package func sysfsPortName(_ port: Int) -> String { ports.isEmpty ? "usb\(bus)-port\(port)" : "\(description)-port\(port)" }

    /// Parses a port directory name (`1-1.4-port2`, `usb1-port2`) back into hub and port.
    package static func parsePortName(_ name: String) -> (hub: USBLocation, port: Int)? {
        guard let range = name.range(of: "-port", options: .backwards) else { return nil }
        guard let hub = USBLocation(String(name[..<range.lowerBound])),
              let port = Int(name[range.upperBound...]), (1...255).contains(port) else { return nil }
        return (hub, port)
    }

    package static func < (lhs: USBLocation, rhs: USBLocation) -> Bool {
        if lhs.bus != rhs.bus { return lhs.bus < rhs.bus }
        return lhs.ports.lexicographicallyPrecedes(rhs.ports)
    }
}
