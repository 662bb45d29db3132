import Foundation

/// Standard error and standard output written without trapping. `FileHandle.write(_:)` traps when the write
/// fails (a redirect onto a full disk or past a file-size limit, a closed pipe), which turned a command's
/// one-line error into a crash by signal; these lose the text instead, and the command still exits with its
/// status.
enum StandardStreams {
    /// Writes `text` to standard error, as is.
    static func error(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Writes `data` to standard output, as is.
    static func output(_ data: Data) {
        try? FileHandle.standardOutput.write(contentsOf: data)
    }
}
