import Foundation

/// A rig file's text, parsed (`JSONParser`) into its top-level value; errors are `RigError`s prefixed
/// `rig file PATH: ` when read from a file.
public enum RigDocument {
    /// Parses rig JSON.
    public static func parse(_ data: some Collection<UInt8>) throws(RigError) -> RigValue {
        RigValue(try JSONParser.parse(data), path: "")
    }

    /// Reads and parses the file at `path`, then reads it with `read`; every error names the file.
    public static func read<T>(file path: String, _ read: (RigValue) throws(RigError) -> T) throws(RigError) -> T {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read it (permission denied, or not a file)" : "cannot read it (no such file)"
            throw RigError(reason).inFile(path)
        }
        do {
            return try read(try parse(data))
        } catch {
            throw error.inFile(path)
        }
    }
}
