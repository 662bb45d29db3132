/// A results input or output that cannot be used: a corrupt record, a truncated event stream, a directory
/// that cannot be written. Names the file (and line, for the event stream) and what is wrong with it.
public struct ResultsError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file (or directory) concerned.
    public var file: String
    /// 1-based line, for line-oriented files.
    public var line: Int?
    /// What is wrong, e.g. "expected a JSON object, found ']'".
    public var message: String

    public init(_ file: String, line: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
