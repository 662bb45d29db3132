/// A file hil reads (a rig, a profile, a fault plan) that cannot be used, in one line: where (the field path, or the line and column of a JSON
/// syntax error) and what is wrong, with the value as written (`accessories[1].power.port: expected a port
/// number from 1 to 255, found 1.5`). Read from a file, it is prefixed `rig file PATH: `.
///
/// The one error type of every rig reader: the rig itself, its power switches, its simulated bench.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, without the file: `budget: unknown key; did you mean budgets?`.
    package let message: String
    /// The rig file it was read from, when it was read from a file.
    package let file: String?

    /// An error saying `message`; a control character in it (from a value of the file) is written as `\uXXXX`, so
    /// the message stays one line and cannot drive a terminal.
    package init(_ message: String) {
        self.message = message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            ? message.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? JSONValue.excerpt(String($0)) : String($0) }.joined()
            : message
        self.file = nil
    }

    /// An error at a field path (`accessories[0].power.port`); the empty path is the top level.
    package init(at path: String, _ message: String) {
        self.init("\(path.isEmpty ? "(top level)" : path): \(message)")
    }

    /// A JSON syntax error at a line and column (both 1-based).
    package init(at position: JSONPosition, _ message: String) {
        self.init("line \(position.line), column \(position.column): \(message)")
    }

    private init(message: String, file: String?) {
        self.message = message
        self.file = file
    }

    /// The same error, as read from the rig file at `path` (a file already named stays named).
    package func inFile(_ path: String) -> InputError {
        file == nil ? InputError(message: message, file: path) : self
    }

    /// `rig file PATH: MESSAGE`, or the message alone.
    public var description: String {
        guard let file else { return message }
        return "rig file \(file): \(message)"
    }
}
