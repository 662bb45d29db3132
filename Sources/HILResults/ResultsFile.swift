import Foundation
import Support

/// A results file written whole (`AtomicFile`: a 0600 temporary file, fsynced and renamed over the old one), its
/// failure a `ResultsError` naming the file and the step that failed.
public enum ResultsFile {
    /// Replaces `url` with `data`.
    public static func write(_ data: Data, to url: URL) throws(ResultsError) {
        do {
            try AtomicFile.replace(url.path, with: data)
        } catch {
            throw ResultsError(url.path, error.description)
        }
    }

    /// `write(_:to:)` for text, as UTF-8.
    public static func write(_ text: String, to url: URL) throws(ResultsError) {
        try write(Data(text.utf8), to: url)
    }
}
