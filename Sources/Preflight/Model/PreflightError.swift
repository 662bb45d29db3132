/// An input that cannot be linted: unreadable, malformed, or not the kind of file expected.
///
/// Every reader reports malformed bytes through this type, never a trap. The description is one line
/// fit for a terminal: what, where (line and column for text, byte offset for binary formats), why.
package enum PreflightError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read at all.
    case unreadable(path: String, reason: String)
    /// XML that is not well-formed.
    case xmlSyntax(file: String, line: Int, column: Int, message: String)
    /// A property list that is malformed or not a dictionary.
    case propertyList(file: String, message: String)
    /// Binary Android XML (AXML) whose chunks do not add up.
    case binaryXML(file: String, offset: Int, message: String)
    /// A zip archive (APK, IPA) that is truncated or malformed.
    case zip(file: String, message: String)
    /// A file past one of the `ReaderLimits`: `location` is where it was hit (`12:5`, `byte 0x1f4`, an
    /// element path), `message` names the limit and its value.
    case limitExceeded(file: String, location: String, message: String)
    /// A well-formed file that is not what the command expects (no Info.plist in an IPA, a root that is not `<manifest>`).
    case unexpectedContent(file: String, message: String)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read \(path): \(reason)"
        case .xmlSyntax(let file, let line, let column, let message):
            "\(file):\(line):\(column): malformed XML: \(message)"
        case .propertyList(let file, let message):
            "\(file): malformed property list: \(message)"
        case .binaryXML(let file, let offset, let message):
            "\(file): malformed binary XML at byte \(offset): \(message)"
        case .zip(let file, let message):
            "\(file): malformed zip archive: \(message)"
        case .limitExceeded(let file, let location, let message):
            "\(file):\(location): refused: \(message)"
        case .unexpectedContent(let file, let message):
            "\(file): \(message)"
        }
    }
}
