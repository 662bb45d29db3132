/// A device verification watches for: by location (from the topology), by ID (from a rig), or both.
///
/// Written as in a rig's `verify.devices`: `2fe3:000b`, `2fe3:000b/SERIAL`, `1-1.4.2`, or
/// `1-1.4.2=2fe3:000b` (that ID at that location).
package struct DeviceExpectation: Hashable, Sendable, CustomStringConvertible {
    package var location: USBLocation?
    package var id: USBID?
    package var serial: String?
}

extension DeviceExpectation {
    /// Parses the rig's text form (see the type); nil for anything else.
    package init?(_ text: String) {
        var rest = Substring(text)
        var location: USBLocation?
        if let equals = rest.firstIndex(of: "=") {
            guard let parsed = USBLocation(String(rest[..<equals])) else { return nil }
            location = parsed
            rest = rest[rest.index(after: equals)...]
        } else if !rest.contains(":"), let parsed = USBLocation(String(rest)) {
            self.init(location: parsed)
            return
        }
        var serial: String?
        if let slash = rest.firstIndex(of: "/") {
            serial = String(rest[rest.index(after: slash)...])
            guard let value = serial, !value.isEmpty else { return nil }
            rest = rest[..<slash]
        }
        guard let id = USBID(String(rest)) else { return nil }
        self.init(location: location, id: id, serial: serial)
    }

    /// True when `device` is what this expectation waits for.
    package func matches(_ device: USBPresence) -> Bool {
        if let location, device.location != location { return false }
        if let id, device.id != id { return false }
        if let serial, device.serial != serial { return false }
        return true
    }

    /// `1-1.4.2 (2fe3:000b)`, `2fe3:000b/ABC`, `1-1.4.2`.
    package var description: String {
        var idText = id.map(\.description) ?? ""
        if let serial { idText += "/\(serial)" }
        switch (location, idText.isEmpty) {
        case (let location?, false): return "\(location) (\(idText))"
        case (let location?, true): return location.description
        case (nil, _): return idText
        }
    }
}

/// One device as verification sees it: present in libusb's list or in sysfs.
public struct USBPresence: Hashable, Sendable, CustomStringConvertible {
    package var location: USBLocation
    package var id: USBID
    package var serial: String?

    public var description: String { "\(location) (\(id))" }
}
