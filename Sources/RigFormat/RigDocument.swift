/// A rig file's text, parsed (`JSONParser`) into its top-level value; errors are `RigError`s prefixed
/// `rig file PATH: ` when read from a file. Profiles and fault plans are read the same way.
public enum RigDocument {
    /// Parses rig JSON within `limits`.
    public static func parse(_ data: some Collection<UInt8>, limits: InputLimits = .standard) throws(RigError) -> RigValue {
        RigValue(try JSONParser.parse(data, limits: limits), path: "")
    }

    /// Reads the file at `path` (no more than `limits.fileBytes` of it), parses it, then reads it with `read`;
    /// every error names the file.
    public static func read<T>(file path: String, limits: InputLimits = .standard, _ read: (RigValue) throws(RigError) -> T) throws(RigError) -> T {
        do {
            let bytes = try InputFile.contents(path, limit: limits.fileBytes)
            return try read(try parse(bytes, limits: limits))
        } catch {
            throw error.inFile(path)
        }
    }
}
