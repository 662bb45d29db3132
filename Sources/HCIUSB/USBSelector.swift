import LibUSB

/// Which USB device a `usb:` moniker names (the part after `usb:`), in Bumble's grammar:
///
/// - `0`: the first device that declares itself a Bluetooth controller (class E0/01/01), by location order;
/// - `2fe3:000b`, `2fe3:000b#1`: the first (second) device with this vendor and product ID;
/// - `2fe3:000b/8A1F44C2`: the device with this ID and USB serial number;
/// - `1-1.4`: the device at this bus and port path;
/// - a trailing `!` forces "vendor class" mode: the first interface with an interrupt IN, a bulk IN and
///   a bulk OUT endpoint is used even when it does not declare class E0/01/01.
package struct USBSelector: Hashable, Sendable, CustomStringConvertible {
    package enum Match: Hashable, Sendable {
        case index(Int)
        case id(vendor: UInt16, product: UInt16, serial: String?, occurrence: Int)
        case location(bus: Int, ports: [Int])
    }

    package let match: Match
    package let forced: Bool

    package init(match: Match, forced: Bool = false) {
        self.match = match
        self.forced = forced
    }

    /// Parses the text after `usb:`; the error names the form expected.
    package init(parsing text: String) throws(USBSelectorError) {
        var body = Substring(text)
        var forced = false
        if body.hasSuffix("!") {
            forced = true
            body = body.dropLast()
        }
        guard !body.isEmpty else { throw USBSelectorError(text, "is empty") }
        if body.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard body.count <= 3, let index = Int(body) else { throw USBSelectorError(text, "index '\(body)' is too large") }
            self.init(match: .index(index), forced: forced)
            return
        }
        if body.contains("-") {
            let halves = body.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard halves.count == 2, let bus = Self.decimal(halves[0]), (1...255).contains(bus) else {
                throw USBSelectorError(text, "'\(body)' is not a location path (BUS-PORT[.PORT…], e.g. 1-1.4)")
            }
            var ports: [Int] = []
            for part in halves[1].split(separator: ".", omittingEmptySubsequences: false) {
                guard let port = Self.decimal(part), (1...255).contains(port) else {
                    throw USBSelectorError(text, "'\(part)' in '\(body)' is not a port number (1-255)")
                }
                ports.append(port)
            }
            guard ports.count <= 7 else { throw USBSelectorError(text, "a location path is at most 7 ports deep") }
            self.init(match: .location(bus: bus, ports: ports), forced: forced)
            return
        }
        guard body.contains(":") else {
            throw USBSelectorError(text, "expected an index (0), VID:PID, VID:PID/SERIAL, VID:PID#N or a location path (1-1.4)")
        }
        var idText = body
        var serial: String?
        var occurrence = 0
        if let slash = body.firstIndex(of: "/") {
            idText = body[..<slash]
            let rest = body[body.index(after: slash)...]
            if rest.hasPrefix("#") {
                guard let number = Self.decimal(rest.dropFirst()) else { throw USBSelectorError(text, "'\(rest)' is not #N") }
                occurrence = number
            } else {
                guard !rest.isEmpty else { throw USBSelectorError(text, "the serial number after '/' is empty") }
                serial = String(rest)
            }
        } else if let hash = body.firstIndex(of: "#") {
            idText = body[..<hash]
            guard let number = Self.decimal(body[body.index(after: hash)...]) else {
                throw USBSelectorError(text, "'\(body[hash...])' is not #N")
            }
            occurrence = number
        }
        let parts = idText.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let vendor = Self.hex16(parts[0]), let product = Self.hex16(parts[1]) else {
            throw USBSelectorError(text, "'\(idText)' is not VID:PID (four hex digits each, e.g. 2fe3:000b)")
        }
        self.init(match: .id(vendor: vendor, product: product, serial: serial, occurrence: occurrence), forced: forced)
    }

    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 3, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func hex16(_ text: Substring) -> UInt16? {
        guard (1...4).contains(text.count), text.allSatisfy(\.isHexDigit) else { return nil }
        return UInt16(text, radix: 16)
    }

    package var description: String {
        let body: String
        switch match {
        case .index(let index): body = String(index)
        case .id(let vendor, let product, let serial, let occurrence):
            body = USBHex.id(vendor, product) + (serial.map { "/" + $0 } ?? "") + (occurrence > 0 ? "#\(occurrence)" : "")
        case .location(let bus, let ports): body = "\(bus)-" + ports.map(String.init).joined(separator: ".")
        }
        return body + (forced ? "!" : "")
    }

    /// Picks the device this selector names from `candidates` (every USB device, any order).
    package func select(from candidates: [USBCandidate]) throws(USBSelectorError) -> USBCandidate {
        let sorted = candidates.sorted { $0.bus != $1.bus ? $0.bus < $1.bus : $0.ports.lexicographicallyPrecedes($1.ports) }
        let bluetooth = sorted.filter(\.isBluetooth)
        func known() -> String {
            bluetooth.isEmpty ? "no device declares class E0/01/01"
                : "Bluetooth devices: " + bluetooth.enumerated().map { "\($0.offset): \($0.element.summary)" }.joined(separator: ", ")
        }
        switch match {
        case .index(let index):
            guard index < bluetooth.count else {
                throw USBSelectorError(description, "there is no Bluetooth USB device number \(index) (\(known()))")
            }
            return bluetooth[index]
        case .id(let vendor, let product, let serial, let occurrence):
            let matching = sorted.filter { $0.vendor == vendor && $0.product == product && (serial == nil || $0.serial == serial) }
            guard occurrence < matching.count else {
                let withID = sorted.filter { $0.vendor == vendor && $0.product == product }
                let serials = withID.compactMap(\.serial)
                let why = withID.isEmpty ? "no USB device has ID \(USBHex.id(vendor, product))"
                    : serial != nil ? "no \(USBHex.id(vendor, product)) has serial \(serial ?? "") (serials present: \(serials.isEmpty ? "none readable" : serials.joined(separator: ", ")))"
                    : "only \(withID.count) device(s) have ID \(USBHex.id(vendor, product))"
                throw USBSelectorError(description, "\(why) (\(known()))")
            }
            return matching[occurrence]
        case .location(let bus, let ports):
            guard let device = sorted.first(where: { $0.bus == bus && $0.ports == ports }) else {
                throw USBSelectorError(description, "no USB device at \(bus)-\(ports.map(String.init).joined(separator: ".")) (\(known()))")
            }
            return device
        }
    }
}

/// One USB device as selection sees it.
package struct USBCandidate: Hashable, Sendable {
    package var bus: Int
    package var ports: [Int]
    package var vendor: UInt16
    package var product: UInt16
    package var serial: String?
    /// Device class E0/01/01, or an interface of that class.
    package var isBluetooth: Bool
    /// The device release number, the device descriptor's `bcdDevice` (USB 2.0 §9.6.1), when read.
    package var bcdDevice: UInt16?

    package init(bus: Int, ports: [Int], vendor: UInt16, product: UInt16, serial: String? = nil, isBluetooth: Bool, bcdDevice: UInt16? = nil) {
        self.bus = bus
        self.ports = ports
        self.vendor = vendor
        self.product = product
        self.serial = serial
        self.isBluetooth = isBluetooth
        self.bcdDevice = bcdDevice
    }

    /// `1-1.4`.
    package var location: String { ports.isEmpty ? "\(bus)" : "\(bus)-" + ports.map(String.init).joined(separator: ".") }
    /// `1-1.4 2fe3:000b/8A1F44C2`.
    package var summary: String { "\(location) \(USBHex.id(vendor, product))" + (serial.map { "/" + $0 } ?? "") }
}

/// A selector that cannot be parsed or names no device.
package struct USBSelectorError: Error, Hashable, Sendable, CustomStringConvertible {
    package let selector: String
    package let reason: String

    package init(_ selector: String, _ reason: String) {
        self.selector = selector
        self.reason = reason
    }

    package var description: String { "usb:\(selector): \(reason)" }
}
