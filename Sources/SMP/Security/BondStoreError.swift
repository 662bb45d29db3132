import Support
// Why the bond store could not do what it was asked.

/// A bond store failure, in one line that names the file and what failed: `cannot write
/// /home/lab/.local/share/hil/bonds/usb_0.json.tmp: No space left on device`. A command that meets one
/// fails (exit 2, except a file that does not parse at opening, which is the user's to repair: exit 3);
/// a pairing whose bond it could not keep fails with it.
public struct BondStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The file cannot be read, or does not parse: it is left as it is, never overwritten.
        case unreadable
        /// A change did not reach the disk: a directory, the lock file, the temporary file, a write, an
        /// fsync or the rename failed.
        case writeFailed
        /// Another writer held the store past the deadline.
        case lockTimedOut
        /// The wait for the store was cancelled.
        case cancelled
    }

    public var kind: Kind
    /// The file the failure concerns (the bond file, its lock file, its temporary file or its directory).
    public var path: String
    /// The whole line, naming `path` and the failure (errno's text for a system call).
    public var description: String

    public init(_ kind: Kind, path: String, _ description: String) {
        self.kind = kind
        self.path = path
        self.description = description
    }

    /// `cannot <action> <path>: <errno's text>`, a change that did not reach the disk.
    static func writeFailed(_ action: String, _ path: String, _ error: SystemCallError) -> BondStoreError {
        BondStoreError(.writeFailed, path: path, "cannot \(action) \(path): \(error)")
    }
}
