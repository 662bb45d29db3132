/// A file's text (a rig, a profile, a fault plan), parsed (`JSONParser`) into its top-level value; errors are `InputError`s prefixed
/// `rig file PATH: ` when read from a file. Profiles and fault plans are read the same way.
package enum InputDocument {
    /// Parses rig JSON within `limits`.
    package static func parse(_ data: some Collection<UInt8>, limits: InputLimits = .standard) throws(InputError) -> InputValue {
        InputValue(try JSONParser.parse(data, limits: limits), path: "")
    }

    /// Reads the file at `path` (no more than `limits.fileBytes` of it), parses it, then reads it with `read`;
    /// every error names the file.
    package static func read<T>(file path: String, limits: InputLimits = .standard, _ read: (InputValue) throws(InputError) -> T) throws(InputError) -> T {
        do {
            let bytes = try InputFile.contents(path, limit: limits.fileBytes)
            return try read(try parse(bytes, limits: limits))
        } catch {
            throw error.inFile(path)
        }
    }
}
