/// A USB vendor and product ID, written `2fe3:000b`.
package struct USBID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let vendor: UInt16
    package let product: UInt16

    package init(vendor: UInt16, product: UInt16) {
        self.vendor = vendor
        self.product = product
    }

    /// Parses `2fe3:000b` (hex, four digits each, case-insensitive).
    package init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }),
              let vendor = UInt16(parts[0], radix: 16), let product = UInt16(parts[1], radix: 16) else { return nil }
        self.init(vendor: vendor, product: product)
    }

    package var description: String { Self.hex4(vendor) + ":" + Self.hex4(product) }

    static func hex4(_ value: UInt16) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    package static func < (lhs: USBID, rhs: USBID) -> Bool { (lhs.vendor, lhs.product) < (rhs.vendor, rhs.product) }
}
