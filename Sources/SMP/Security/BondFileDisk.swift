// Reading a bond file, and replacing it atomically.
import Foundation
import Support

/// The bond file on the disk: read whole, or replaced whole by a temporary file made 0600 from its first
/// byte (open(2) with O_CREAT | O_EXCL and mode 0600: no moment at which another user could open it),
/// written, fsynced and renamed over the file, and the rename made durable by an fsync of the directory.
/// Writes happen under `BondFileLock`.
struct BondFileDisk {
    let fileSystem: any FileSystemCalls

    /// What the file holds.
    struct Contents: Codable, Equatable {
        var adapter: String
        var identity: LocalIdentity
        var bonds: [Bond]
    }

    /// One version of the file: what it holds and which version it is.
    struct Version {
        var contents: Contents
        var stamp: FileStamp
    }

    /// The most a bond file is read of (a thousand bonds take half a megabyte): a larger one is not a bond file.
    static let maximumSize = 16 << 20

    /// The temporary file a change writes before it renames it over `path`.
    static func temporaryPath(for path: String) -> String { path + ".tmp" }

    /// The file's current version; nil when there is none.
    func read(_ path: String) throws(BondStoreError) -> Version? {
        let fd: Int32
        do {
            fd = try fileSystem.openFile(path, flags: O_RDONLY | O_CLOEXEC, mode: 0)
        } catch where error.code == ENOENT {
            return nil
        } catch {
            throw BondStoreError(.unreadable, path: path, "\(path): cannot read: \(error)")
        }
        defer { try? fileSystem.closeFile(fd) }
        var bytes: [UInt8] = []
        let stamp: FileStamp
        do {
            stamp = try fileSystem.fileStamp(of: fd)
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = try chunk.withUnsafeMutableBytes { buffer in
                    Result { () throws(SystemCallError) in try fileSystem.readFile(fd, into: buffer) }
                }.get()
                if count == 0 { break }
                bytes += chunk.prefix(count)
                if bytes.count > Self.maximumSize { break }
            }
        } catch {
            throw BondStoreError(.unreadable, path: path, "\(path): cannot read: \(error)")
        }
        guard bytes.count <= Self.maximumSize else {
            throw BondStoreError(.unreadable, path: path, "\(path): not a bond file: larger than \(Self.maximumSize >> 20) MiB")
        }
        do {
            return Version(contents: try JSONDecoder().decode(Contents.self, from: Data(bytes)), stamp: stamp)
        } catch let error as DecodingError {
            throw BondStoreError(.unreadable, path: path, "\(path): not a bond file: \(Self.describe(error))")
        } catch {
            throw BondStoreError(.unreadable, path: path, "\(path): not a bond file: \(error)")
        }
    }

    /// The stamp of the file's current version; nil when there is none or it cannot be seen.
    func stamp(_ path: String) -> FileStamp? {
        try? fileSystem.fileStamp(atPath: path)
    }

    /// The bytes of `contents` as the file holds them: readable JSON, keys sorted.
    static func encoded(_ contents: Contents) throws(BondStoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return Array(try encoder.encode(contents)) + Array("\n".utf8)
        } catch {
            throw BondStoreError(.writeFailed, path: "", "cannot encode the bonds of \(contents.adapter): \(error)")
        }
    }

    /// Replaces the file at `path` with `contents`; the stamp of the new version.
    func replace(_ path: String, with contents: Contents) throws(BondStoreError) -> FileStamp {
        let bytes = try Self.encoded(contents)
        let temporary = Self.temporaryPath(for: path)
        // Under the lock no one else writes it: one that is there is left by a writer that died.
        do {
            try fileSystem.removeFile(temporary)
        } catch where error.code == ENOENT {
        } catch {
            throw .writeFailed("remove the leftover temporary file", temporary, error)
        }
        do {
            return try AtomicFile.replace(path, with: bytes, temporary: temporary, fileSystem: fileSystem)
        } catch {
            throw .writeFailed(error.step, error.path, error.error)
        }
    }

    /// Makes `directory` and its missing parents, mode 0700.
    func makeDirectories(_ directory: String) throws(BondStoreError) {
        if (try? fileSystem.fileStamp(atPath: directory)) != nil { return }
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            do {
                try fileSystem.makeDirectory(path, mode: 0o700)
            } catch where error.code == EEXIST {
            } catch {
                throw .writeFailed("create the directory", path, error)
            }
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let at = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let what: String = switch error {
            case .keyNotFound(let key, _): "missing \"\(key.stringValue)\""
            default: context.debugDescription
            }
            return at.isEmpty ? what : "\(at.hasPrefix(".") ? String(at.dropFirst()) : at): \(what)"
        @unknown default:
            return "\(error)"
        }
    }
}
