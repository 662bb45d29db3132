/// A dotted version number such as an iOS deployment target (`12.0`, `13`, `15.4.1`).
package struct OSVersion: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The numeric components, most significant first, trailing zeros kept as written.
    package let components: [Int]

    /// Parses `12`, `12.0`, `12.4.1`; nil for anything else (empty parts, signs, letters).
    package init?(_ text: String) {
        let parts = text.trimmingCharactersInWhitespace().split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var components: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part), value < 100_000 else { return nil }
            components.append(value)
        }
        self.components = components
    }

    /// A version from its major (and minor) number.
    package init(_ major: Int, _ minor: Int = 0) {
        components = [major, minor]
    }

    /// The first component.
    package var major: Int { components.first ?? 0 }

    package static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let a = index < lhs.components.count ? lhs.components[index] : 0
            let b = index < rhs.components.count ? rhs.components[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    package static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    package func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    package var description: String { components.map(String.init).joined(separator: ".") }
}

extension String {
    /// The string without leading and trailing whitespace and newlines (Foundation-free).
    func trimmingCharactersInWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
