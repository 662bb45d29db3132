/// "2.00 s", "150 ms", "42 µs".
package func formatDuration(_ duration: Duration) -> String {
    let seconds = duration / .seconds(1)
    if seconds >= 1 { return String(format2: seconds, suffix: " s") }
    if seconds >= 0.001 { return String(format2: seconds * 1000, suffix: " ms", digits: 1) }
    return String(format2: seconds * 1_000_000, suffix: " µs", digits: 0)
}

extension String {
    package init(format2 value: Double, suffix: String, digits: Int = 2) {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = digits == 0 ? String(Int(rounded)) : String(rounded)
        if digits > 0, let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        self = text + suffix
    }
}
