/// A switch named on the command line: `usb-hub:1-1.4`, `ykush:YK12345` (or `ykush:` for the only
/// board), `relay:dcttech:ABCDE` (or `relay:dcttech:` for the only board).
package enum PowerSwitchMoniker: Sendable, Equatable, CustomStringConvertible {
    case usbHub(USBLocation)
    case ykush(serial: String?)
    case relay(vendor: String, serial: String?)

    package static let forms = "usb-hub:LOCATION (e.g. usb-hub:1-1.4), ykush:SERIAL (or ykush: for the only board), relay:dcttech:SERIAL"

    package init(_ text: String) throws {
        func bad(_ why: String) -> PowerSwitchError {
            PowerSwitchError(.invalidInput, "'\(text)' is not a power switch: \(why); use \(Self.forms)")
        }
        guard let colon = text.firstIndex(of: ":") else { throw bad("no kind before ':'") }
        let kind = text[..<colon], rest = String(text[text.index(after: colon)...])
        switch kind {
        case "usb-hub":
            guard let location = USBLocation(rest) else { throw bad("'\(rest)' is not a hub location (bus-port.port…, like 1-1.4)") }
            self = .usbHub(location)
        case "ykush":
            guard !rest.contains(":"), !rest.contains(where: \.isWhitespace) else { throw bad("'\(rest)' is not a YKUSH serial") }
            self = .ykush(serial: rest.isEmpty ? nil : rest)
        case "relay":
            let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let vendor = parts.first, !vendor.isEmpty else { throw bad("no relay vendor (relay:dcttech:SERIAL)") }
            guard USBRelayActuator.supportedVendors.contains(vendor) else {
                throw bad("relay vendor '\(vendor)' is not supported (supported: \(USBRelayActuator.supportedVendors.joined(separator: ", ")))")
            }
            let serial = parts.count > 1 ? parts[1] : ""
            guard serial.count <= 5, serial.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw bad("'\(serial)' is not a relay board serial (up to 5 ASCII characters)")
            }
            self = .relay(vendor: vendor, serial: serial.isEmpty ? nil : serial)
        default:
            throw bad("unknown kind '\(kind)'")
        }
    }

    package var description: String {
        switch self {
        case .usbHub(let location): return "usb-hub:\(location)"
        case .ykush(let serial): return "ykush:\(serial ?? "")"
        case .relay(let vendor, let serial): return "relay:\(vendor):\(serial ?? "")"
        }
    }

    /// The description of this switch on `ports`, as if a rig had written it.
    package func description(ports: [Int], method: HubSwitchMethod = .auto, force: Bool = false, repeatOff: Int = 1,
                            verify: PowerSwitchDescription.Verify = .init()) -> PowerSwitchDescription {
        switch self {
        case .usbHub(let hub):
            return PowerSwitchDescription(name: description, backend: .usbHub(hub: hub, ports: ports, method: method, force: force, repeatOff: repeatOff), verify: verify)
        case .ykush(let serial):
            return PowerSwitchDescription(name: description, backend: .ykush(serial: serial, ports: ports), verify: verify)
        case .relay(let vendor, let serial):
            return PowerSwitchDescription(name: description, backend: .relay(vendor: vendor, serial: serial, ports: ports), verify: verify)
        }
    }
}
