import Foundation

extension USBTopology {
    /// The tree `hil usb` prints: buses, hubs (per-port / ganged / none), ports, devices with VID:PID,
    /// serial, class and speed; the devices `marking` picks out marked, and listed under the tree.
    package func renderTree(marking: USBDeviceMarking? = nil) -> String {
        var lines: [String] = []
        let byLocation = Dictionary(devices.map { ($0.location, $0) }, uniquingKeysWith: { first, _ in first })
        let roots = devices.filter { $0.location.parent.map { byLocation[$0] == nil } ?? true }
        for root in roots {
            lines.append((root.location.isRootHub ? "bus \(root.location.bus)  " : "") + Self.line(for: root, marking: marking))
            render(children: root, prefix: "", into: &lines, byLocation: byLocation, marking: marking)
        }
        if devices.isEmpty { lines.append("no USB devices") }
        if let marking {
            let marked = devices(markedBy: marking)
            if !marked.isEmpty {
                lines.append("")
                lines.append("\(marking.plural): " + marked.map { "\($0.device.location) (\($0.device.id), \($0.reason))" }.joined(separator: ", "))
            }
        }
        for problem in problems { lines.append("note: \(problem)") }
        return lines.joined(separator: "\n")
    }

    private func render(children hub: USBDeviceInfo, prefix: String, into lines: inout [String], byLocation: [USBLocation: USBDeviceInfo],
                        marking: USBDeviceMarking?) {
        var entries: [(port: Int, device: USBDeviceInfo?, status: PortStatus?)] = []
        let attached = devices.filter { $0.location.parent == hub.location }
        var ports = Set(attached.compactMap(\.location.portOnParent))
        if let count = hub.hub?.descriptor?.portCount { ports.formUnion(1...count) }
        for port in ports.sorted() {
            let device = hub.location.child(port: port).flatMap { byLocation[$0] }
            entries.append((port, device, hub.hub?.ports[port]))
        }
        for (index, entry) in entries.enumerated() {
            let last = index == entries.count - 1
            let branch = prefix + (last ? "└─ " : "├─ ")
            let statusText = entry.status.map { " [\($0)]" } ?? ""
            if let device = entry.device {
                lines.append(branch + "port \(entry.port)\(statusText): " + Self.line(for: device, marking: marking))
                render(children: device, prefix: prefix + (last ? "   " : "│  "), into: &lines, byLocation: byLocation, marking: marking)
            } else {
                lines.append(branch + "port \(entry.port)\(statusText): empty")
            }
        }
    }

    /// One device: `1-1.2  0627:0001 QEMU USB Keyboard  serial 42  class 03/01/01  12 Mb/s`.
    static func line(for device: USBDeviceInfo, marking: USBDeviceMarking?) -> String {
        var parts = ["\(device.location)  \(device.id)"]
        let name = [device.manufacturer, device.product].compactMap { $0 }.joined(separator: " ")
        if !name.isEmpty { parts[0] += " \(name)" }
        if let serial = device.serial { parts.append("serial \(serial)") }
        parts.append("class \(device.classTriple)")
        parts.append(device.speed.rate)
        if let hub = device.hub {
            if let descriptor = hub.descriptor {
                parts.append("hub: \(descriptor.portCount) ports, \(descriptor.switchingMode.rawValue) (wHubCharacteristics \(wordHex(descriptor.characteristics)))")
            } else {
                parts.append("hub: unreadable")
            }
            if let partner = hub.partner { parts.append("USB 3 pair of \(partner)") }
        } else if device.isHub {
            parts.append("hub")
        }
        if let marking, let reason = marking.reason(device) { parts.append("◆ \(marking.noun) (\(reason))") }
        return parts.joined(separator: "  ")
    }

    /// `hil usb --json`: one object per device, hubs with their ports; a device `marking` picks out carries
    /// its reason under the marking's key.
    package func jsonData(marking: USBDeviceMarking? = nil) throws -> Data {
        let list: [[String: Any]] = devices.map { device in
            var object: [String: Any] = [
                "location": device.location.description, "id": device.id.description,
                "vendorID": USBID.hex4(device.id.vendor), "productID": USBID.hex4(device.id.product),
                "class": device.classTriple, "speed": device.speed.rawValue, "bcdUSB": wordHex(device.bcdUSB),
                "deviceNumber": device.address,
                "interfaces": device.interfaces.map { $0.triple },
            ]
            if let parent = device.location.parent { object["parent"] = parent.description }
            if let port = device.location.portOnParent { object["port"] = port }
            if let value = device.manufacturer { object["manufacturer"] = value }
            if let value = device.product { object["product"] = value }
            if let value = device.serial { object["serial"] = value }
            if let marking, let reason = marking.reason(device) { object[marking.jsonKey] = reason }
            if let hub = device.hub {
                var hubObject: [String: Any] = [:]
                if let descriptor = hub.descriptor {
                    hubObject["portCount"] = descriptor.portCount
                    hubObject["switching"] = descriptor.switchingMode.rawValue
                    hubObject["hubCharacteristics"] = wordHex(descriptor.characteristics)
                    hubObject["superSpeed"] = descriptor.superSpeed
                    hubObject["hubDescriptor"] = descriptor.bytes.map(byteHex).joined(separator: " ")
                }
                hubObject["ports"] = hub.ports.keys.sorted().compactMap { port -> [String: Any]? in
                    guard let status = hub.ports[port] else { return nil }
                    return ["port": port, "status": wordHex(status.status), "change": wordHex(status.change),
                            "powered": status.isPowered, "connected": status.isConnected]
                }
                if let value = hub.containerID { hubObject["containerID"] = value.description }
                if let value = hub.partner { hubObject["partner"] = value.description }
                if let value = hub.partnerEvidence { hubObject["partnerEvidence"] = value }
                if let value = hub.problem { hubObject["problem"] = value }
                object["hub"] = hubObject
            }
            return object
        }
        return try JSONSerialization.data(withJSONObject: ["devices": list, "problems": problems], options: [.prettyPrinted, .sortedKeys])
    }
}
