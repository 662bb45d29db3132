/// The most the rig-file reader accepts from one file — a rig, an accessory profile, a fault plan — as the
/// preflight readers have their `ReaderLimits`. The file is read no further than one byte past `fileBytes`, and
/// the parser counts against the others as it goes, so a hostile file costs no more than its bytes up to the
/// first limit it passes. Past one is one `InputError` naming the limit, its value and where
/// (`steps[0].do: a string of 70000 bytes at line 1, column 33, more than InputLimits.stringBytes = 4096: "aaaa…"`).
///
/// Real files are far inside every limit: the largest rig in `rigs/` is 9 KB (its JSON Schema 52 KB), nests
/// five levels, and its longest string is a command line of under 200 characters.
package struct InputLimits: Sendable, Hashable {
    /// Bytes of one file.
    package var fileBytes = 1 << 20
    /// Bytes of one string as written between its quotes (escapes count as written), a key or a value: a
    /// name, a description, a path, a command line, hex octets.
    package var stringBytes = 4096
    /// Characters of one number as written (`18446744073709551615` is 20).
    package var numberCharacters = 64
    /// Arrays and objects open at once.
    package var nestingDepth = 64

    package init() {}

    /// The limits every command reads rigs, profiles and plans with.
    package static let standard = InputLimits()

    /// "`what`, more than InputLimits.`limit` = `value`".
    static func exceeded(_ what: String, limit: String, value: Int) -> String {
        "\(what), more than InputLimits.\(limit) = \(value)"
    }
}
