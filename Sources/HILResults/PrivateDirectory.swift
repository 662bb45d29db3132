#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Makes a results directory and its parents the way the bond store makes its own: each directory it creates
/// is mode 0700 (narrowed further by the umask) from the `mkdir(2)` that makes it — captures, records and
/// reports of a secured run are nobody else's to read. Directories already there are left as they are.
public enum PrivateDirectory {
    /// mkdir(2): path and mode; 0, or -1 with errno set. Tests watch the mode through it.
    typealias MakeDirectory = (String, mode_t) -> Int32

    /// The mode each directory is created with.
    public static let mode: mode_t = 0o700

    /// Creates `url` and any missing parent, each mode 0700. Throws `ResultsError` naming the directory that
    /// could not be made, or the path that is there and is not a directory.
    public static func create(_ url: URL) throws(ResultsError) {
        try create(url, making: { path, mode in mkdir(path, mode) })
    }

    /// `create(_:)`, making each directory through `making`.
    static func create(_ url: URL, making: MakeDirectory) throws(ResultsError) {
        let path = url.standardizedFileURL.path
        var missing: [String] = []
        var current = path
        while !isDirectory(current) {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        for directory in missing.reversed() {
            if making(directory, mode) == 0 { continue }
            let code = errno
            // Another process made it in the meantime: as good as ours.
            if code == EEXIST, isDirectory(directory) { continue }
            let reason = code == EEXIST ? "it is there and is not a directory" : String(cString: strerror(code))
            throw ResultsError(directory, "cannot create the directory: \(reason)")
        }
    }

    /// Whether `path` is a directory (or a symbolic link to one).
    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
