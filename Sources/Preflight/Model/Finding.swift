/// Where in the input a finding points.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file given on the command line.
    public let file: String
    /// The entry inside an archive (`Payload/App.app/Info.plist`, `AndroidManifest.xml`), if the file is one.
    public let entry: String?
    /// 1-based line, when the format has lines (text XML; binary AXML keeps the source line).
    public let line: Int?
    /// 1-based column, when known.
    public let column: Int?

    public init(file: String, entry: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.entry = entry
        self.line = line
        self.column = column
    }

    /// The same file and entry at another line and column.
    public func at(line: Int?, column: Int?) -> SourceLocation {
        SourceLocation(file: file, entry: entry, line: line, column: column)
    }

    /// `file[!entry][:line[:column]]`, the form compilers print.
    public var description: String {
        var text = file
        if let entry { text += "!/\(entry)" }
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}

/// One violation of one rule at one place.
public struct Finding: Sendable, Hashable, Codable {
    /// The rule violated.
    public let rule: Rule
    /// What is wrong here, in this file's terms (names the key or permission).
    public let message: String
    /// Where.
    public let location: SourceLocation

    /// The rule's severity.
    public var severity: Severity { rule.severity }

    public init(rule: Rule, message: String, location: SourceLocation) {
        self.rule = rule
        self.message = message
        self.location = location
    }
}
