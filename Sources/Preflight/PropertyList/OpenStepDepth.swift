import Foundation

/// The nesting check an OpenStep property list passes before Foundation, whose parser recurses, reads it.
enum OpenStepDepth {
    /// Throws when `(` and `{` outside quoted strings open more than `ReaderLimits.nestingDepth` at once.
    /// Brackets inside comments count too: that can only refuse a file nested nearly as deep as the limit.
    static func check(_ data: Data, file: String, limits: ReaderLimits) throws(PreflightError) {
        var depth = 0
        var quote: UInt8?
        var escaped = false
        for (offset, byte) in data.enumerated() {
            if let open = quote {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == open { quote = nil }
                continue
            }
            switch byte {
            case 0x22, 0x27: quote = byte  // " '
            case 0x28, 0x7B:  // ( {
                depth += 1
                guard depth <= limits.nestingDepth else {
                    throw .limit("containers nested \(depth) deep", limit: "nestingDepth", value: limits.nestingDepth,
                                 file: file, location: "byte 0x\(String(offset, radix: 16))")
                }
            case 0x29, 0x7D: depth = max(0, depth - 1)  // ) }
            default: break
            }
        }
    }
}
