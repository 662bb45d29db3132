extension String {
    /// This text with control characters written out — C0 (`\u{1B}`, a newline too), DEL and C1 — so a
    /// message that quotes bytes from a hostile file stays one line and can never drive the terminal.
    var escapingControlCharacters: String {
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
