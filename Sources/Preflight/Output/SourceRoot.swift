import Foundation

/// The directory that SARIF artifact URIs are relative to (`%SRCROOT%`).
///
/// `hil preflight --root DIR` names it; by default it is the repository holding the input: the first
/// directory, walking up from the input's, that contains `.git` (a directory, or a worktree's file),
/// else the input's own directory.
package struct SourceRoot: Sendable, Equatable {
    /// The `uriBaseId` that artifact locations under the root carry.
    package static let uriBaseId = "%SRCROOT%"

    /// The root: absolute, standardized, symbolic links resolved, no trailing slash (but `/` itself).
    package let path: String

    /// The root `directory` (relative paths are taken from the current directory).
    package init(directory: String) {
        path = Self.absolute(directory)
    }

    /// The repository holding `input`, or `input`'s directory when no `.git` is found above it.
    package static func repository(containing input: String) -> SourceRoot {
        let start = (absolute(input) as NSString).deletingLastPathComponent
        var directory = start
        while true {
            if FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(".git")) {
                return SourceRoot(directory: directory)
            }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent.isEmpty || parent == directory { return SourceRoot(directory: start) }
            directory = parent
        }
    }

    /// `file`'s path below the root with `/` separators, or nil when `file` is not inside the root.
    package func relativePath(of file: String) -> String? {
        let full = Self.absolute(file)
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard full.hasPrefix(prefix), full.count > prefix.count else { return nil }
        return String(full.dropFirst(prefix.count))
    }

    /// The root as a `file://` URI ending in `/`, as SARIF's `originalUriBaseIds` requires.
    package var fileURI: String {
        let directory = path.hasSuffix("/") ? path : path + "/"
        return "file://" + (directory.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? directory)
    }

    /// `path` made absolute against the current directory, with `.`, `..` and symbolic links resolved.
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
