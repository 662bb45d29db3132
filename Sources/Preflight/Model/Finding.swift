/// Where in the input a finding points.
package struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file given on the command line.
    package let file: String
    /// The entry inside an archive (`Payload/App.app/Info.plist`, `AndroidManifest.xml`), if the file is one.
    package let entry: String?
    /// 1-based line, when the format has lines (text XML; binary AXML keeps the source line).
    package let line: Int?
    /// 1-based column, when known.
    package let column: Int?

    package init(file: String, entry: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.entry = entry
        self.line = line
        self.column = column
    }

    /// The same file and entry at another line and column.
    package func at(line: Int?, column: Int?) -> SourceLocation {
        SourceLocation(file: file, entry: entry, line: line, column: column)
    }

    /// `file[!entry][:line[:column]]`, the form compilers print.
    package var description: String {
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
package struct Finding: Sendable, Hashable, Codable {
    /// The rule violated.
    package let rule: Rule
    /// What is wrong here, in this file's terms (names the key or permission).
    package let message: String
    /// Where.
    package let location: SourceLocation

    /// The rule's severity.
    package var severity: Severity { rule.severity }
}
