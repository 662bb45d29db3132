extension JSONParser {
    // Numbers and strings (RFC 8259 §6, §7): numbers keep their text; strings are decoded from their
    // escapes and UTF-8, refusing control characters, lone surrogates and invalid UTF-8.

    mutating func digits() -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            advance()
            count += 1
        }
        return count
    }

    mutating func number() throws(InputError) -> String {
        let start = index
        let startPosition = position
        if current == UInt8(ascii: "-") { advance() }
        if current == UInt8(ascii: "0") {
            advance()
            if let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                throw InputError(at: startPosition, "a JSON number has no leading zeros")
            }
        } else if digits() == 0 {
            throw fail("expected a digit in the number")
        }
        if current == UInt8(ascii: ".") {
            advance()
            guard digits() > 0 else { throw fail("expected a digit after the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard digits() > 0 else { throw fail("expected a digit in the exponent") }
        }
        guard index - start <= limits.numberCharacters else {
            let head = String(decoding: bytes[start..<(start + 24)], as: UTF8.self)
            throw InputError(at: fieldPath, InputLimits.exceeded("a number of \(index - start) characters at \(startPosition)", limit: "numberCharacters",
                                                              value: limits.numberCharacters) + ": \(head)…")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func hexQuad() throws(InputError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw fail("expected four hexadecimal digits after \\u") }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// A string (`what` is "a string" or "a key"), read no further than `InputLimits.stringBytes` past its quote.
    mutating func string(what: String) throws(InputError) -> String {
        let startPosition = position
        advance()  // "
        let start = index
        var scalars = String.UnicodeScalarView()
        while true {
            guard index - start <= limits.stringBytes else { throw tooLong(what, from: start, at: startPosition, read: scalars) }
            guard let byte = current else { throw fail("expected '\"' to close the string") }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(scalars)
            case UInt8(ascii: "\\"):
                let escapePosition = position
                advance()
                guard let escaped = current else { throw fail("expected an escape after '\\'") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escaped)); advance()
                case UInt8(ascii: "b"): scalars.append("\u{08}"); advance()
                case UInt8(ascii: "f"): scalars.append("\u{0C}"); advance()
                case UInt8(ascii: "n"): scalars.append("\n"); advance()
                case UInt8(ascii: "r"): scalars.append("\r"); advance()
                case UInt8(ascii: "t"): scalars.append("\t"); advance()
                case UInt8(ascii: "u"):
                    advance()
                    let unit = try hexQuad()
                    if (0xD800...0xDBFF).contains(unit) {
                        guard current == UInt8(ascii: "\\") else {
                            throw InputError(at: escapePosition, "a high surrogate \\u\(String(unit, radix: 16, uppercase: true)) must be followed by a low surrogate \\uDC00…\\uDFFF")
                        }
                        advance()
                        guard current == UInt8(ascii: "u") else {
                            throw InputError(at: escapePosition, "a high surrogate \\u\(String(unit, radix: 16, uppercase: true)) must be followed by a low surrogate \\uDC00…\\uDFFF")
                        }
                        advance()
                        let low = try hexQuad()
                        guard (0xDC00...0xDFFF).contains(low), let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else {
                            throw InputError(at: escapePosition, "a high surrogate \\u\(String(unit, radix: 16, uppercase: true)) must be followed by a low surrogate \\uDC00…\\uDFFF")
                        }
                        scalars.append(scalar)
                    } else if let scalar = Unicode.Scalar(unit) {
                        scalars.append(scalar)
                    } else {
                        throw InputError(at: escapePosition, "a lone low surrogate \\u\(String(unit, radix: 16, uppercase: true)) is not a character")
                    }
                default:
                    throw fail("expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
                }
            case 0x00..<0x20:
                throw fail("expected a control character to be escaped in a string (\\n, \\t, \\u00XX)")
            case 0x00...0x7F:
                scalars.append(Unicode.Scalar(byte))
                advance()
            default:
                guard let scalar = scalarAt(index) else { throw fail("expected UTF-8 text") }
                scalars.append(scalar)
                for _ in 0..<String(scalar).utf8.count { advance() }
            }
        }
    }

    /// A string past `InputLimits.stringBytes`: its field path, its length as written (found by a scan for
    /// its closing quote, decoding nothing), the limit, and its first characters.
    private func tooLong(_ what: String, from start: Int, at position: JSONPosition, read scalars: String.UnicodeScalarView) -> InputError {
        var end = start
        var closed = false
        while end < bytes.count {
            if bytes[end] == UInt8(ascii: "\"") { closed = true; break }
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        let length = min(end, bytes.count) - start
        let head = String(String.UnicodeScalarView(scalars.prefix(32)))
        let size = closed ? "\(what) of \(length) bytes" : "\(what) of \(length) bytes, never closed,"
        return InputError(at: fieldPath, InputLimits.exceeded("\(size) at \(position)", limit: "stringBytes", value: limits.stringBytes)
                        + ": " + JSONValue.quote(head + "…"))
    }
}
