/// How USB numbers are written in messages and monikers: lowercase hex, zero-padded.
package enum USBHex {
    /// `value` in `digits` lowercase hex digits: `000b`.
    package static func hex(_ value: UInt16, digits: Int = 4) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A vendor and product ID: `2fe3:000b`.
    package static func id(_ vendor: UInt16, _ product: UInt16) -> String { hex(vendor) + ":" + hex(product) }

    /// One byte: `0a`.
    package static func byte(_ value: UInt8) -> String { hex(UInt16(value), digits: 2) }
}
