/// The words of a `hil` command line after the subcommand, consumed by name.
///
/// Options take the forms `--name value` and `--name=value`; flags are `--name`.
/// Every word must be consumed: `finish()` rejects what is left, so a typo is an error, not a no-op.
struct Arguments {
    private var words: [String]

    init(_ words: [String]) { self.words = words }

    /// True when `--name` is present (and removes it).
    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: "--\(name)") else { return false }
        words.remove(at: index)
        return true
    }

    /// The value of `--name VALUE` or `--name=VALUE`, if present (and removes it).
    mutating func option(_ name: String) throws(UsageError) -> String? {
        if let index = words.firstIndex(where: { $0.hasPrefix("--\(name)=") }) {
            let word = words.remove(at: index)
            return String(word.dropFirst(name.count + 3))
        }
        guard let index = words.firstIndex(of: "--\(name)") else { return nil }
        guard index + 1 < words.count, !words[index + 1].hasPrefix("--") else {
            throw UsageError("--\(name) needs a value")
        }
        let value = words[index + 1]
        words.removeSubrange(index...(index + 1))
        return value
    }

    /// Every value of a repeatable option, in order.
    mutating func options(_ name: String) throws(UsageError) -> [String] {
        var values: [String] = []
        while let value = try option(name) { values.append(value) }
        return values
    }

    /// A numeric option within `range`; names the option and the bad value otherwise.
    mutating func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = try option(name) else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError("--\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// The next positional word (not starting with `--`), if any (and removes it).
    mutating func positional() -> String? {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") || $0 == "-" }) else { return nil }
        return words.remove(at: index)
    }

    /// The next positional word, or a usage error naming what was expected.
    mutating func required(_ what: String) throws(UsageError) -> String {
        guard let word = positional() else { throw UsageError("missing \(what)") }
        return word
    }

    /// Fails when words are left over.
    func finish() throws(UsageError) {
        if let word = words.first { throw UsageError("unexpected argument '\(word)'") }
    }
}

/// A command line that cannot be carried out as written: exit status 3.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
