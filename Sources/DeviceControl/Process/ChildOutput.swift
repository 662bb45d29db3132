import Support

/// What a child process wrote (stdout and stderr as they came), kept to its last 32–64 KiB, for matching a
/// readiness pattern and for quoting its last lines in an error.
struct ChildOutput: Sendable {
    private(set) var text = ""

    /// Adds what the child wrote, on either stream (its end adds nothing).
    mutating func record(_ event: ChildEvent) {
        guard case .stdout(let bytes) = event else {
            if case .stderr(let bytes) = event { append(bytes) }
            return
        }
        append(bytes)
    }

    private mutating func append(_ bytes: [UInt8]) {
        text += String(decoding: bytes, as: UTF8.self)
        if text.count > 65_536 { text = String(text.suffix(32_768)) }
    }

    /// Its last 3 lines joined by ` | ` (at most 300 characters), or `(none)`.
    var tail: String {
        let lines = text.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " | ")
        return lines.isEmpty ? "(none)" : String(lines.suffix(300))
    }
}
