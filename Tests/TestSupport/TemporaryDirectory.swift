import Foundation

/// Scratch directories for tests: a fresh one under the system temp directory, removed by the caller's `defer`.
public enum TemporaryDirectory {
    /// A new, empty directory named `<label>-<8 random characters>`.
    public static func make(_ label: String = "hil") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes a directory made by `make`, ignoring one that is already gone.
    public static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
