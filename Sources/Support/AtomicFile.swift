#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes whole files so that a reader — or a process killed half-way, or a power cut — only ever sees the old
/// content or the new content, never a mix: write a temporary file in the same directory, `fsync(2)` it,
/// `rename(2)` it over the target, then `fsync(2)` the directory so the rename itself survives a power cut.
///
/// The temporary file is created mode 0600 (`open(2)` with `O_CREAT | O_EXCL`; the umask may narrow it), so
/// the file is its owner's alone from its first byte: results name devices, addresses and failures of secured
/// links, and bond files hold keys. Its system calls go through `FileSystemCalls`, so a test can make any of
/// them fail (a full disk, a read-only file system). The results writer and the bond store both use it.
package enum AtomicFile {
    /// The mode every file it writes is created with.
    package static let mode: UInt32 = 0o600

    /// Replaces the file at `path` with `bytes`, writing them first to `temporary` (by default a name of its own
    /// beside `path`: `.NAME.tmp-PID-RANDOM`), which must not exist. The stamp of the new file. Throws
    /// `AtomicFileError` naming the step, the file and the system's reason; the temporary file is removed then.
    @discardableResult
    package static func replace(_ path: String, with bytes: [UInt8], temporary: String? = nil,
                               fileSystem: some FileSystemCalls = SystemFileSystemCalls()) throws(AtomicFileError) -> FileStamp {
        let temporary = temporary ?? temporaryPath(for: path)
        let fd: Int32
        do {
            fd = try fileSystem.openFile(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: mode)
        } catch {
            throw AtomicFileError("create", temporary, error)
        }
        let stamp: FileStamp
        do {
            stamp = try write(bytes, to: fd, temporary, fileSystem)
        } catch {
            try? fileSystem.closeFile(fd)
            try? fileSystem.removeFile(temporary)
            throw error
        }
        do {
            try fileSystem.closeFile(fd)
        } catch {
            try? fileSystem.removeFile(temporary)
            throw AtomicFileError("close", temporary, error)
        }
        do {
            try fileSystem.renameFile(temporary, to: path)
        } catch {
            try? fileSystem.removeFile(temporary)
            throw AtomicFileError("replace", path, error)
        }
        try syncDirectory(of: path, fileSystem)
        return stamp
    }

    /// `replace` for `Data`.
    @discardableResult
    package static func replace(_ path: String, with data: Data, fileSystem: some FileSystemCalls = SystemFileSystemCalls()) throws(AtomicFileError) -> FileStamp {
        try replace(path, with: [UInt8](data), fileSystem: fileSystem)
    }

    /// A temporary name beside `path` that no other writer picks: `.NAME.tmp-PID-RANDOM`.
    package static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    }

    /// The directory that holds `path`.
    package static func directory(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    private static func write(_ bytes: [UInt8], to fd: Int32, _ temporary: String, _ fileSystem: some FileSystemCalls) throws(AtomicFileError) -> FileStamp {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemCallError) in try fileSystem.writeFile(fd, UnsafeRawBufferPointer(rebasing: buffer[written...])) }
            }
            let count: Int
            switch result {
            case .success(let wrote): count = wrote
            case .failure(let error): throw AtomicFileError("write", temporary, error)
            }
            guard count > 0 else { throw AtomicFileError("write", temporary, SystemCallError(EIO)) }
            written += count
        }
        do {
            try fileSystem.syncFile(fd)
        } catch {
            throw AtomicFileError("fsync", temporary, error)
        }
        do {
            return try fileSystem.fileStamp(of: fd)
        } catch {
            throw AtomicFileError("stat", temporary, error)
        }
    }

    /// Makes the rename durable: fsync of the directory that holds `path`.
    private static func syncDirectory(of path: String, _ fileSystem: some FileSystemCalls) throws(AtomicFileError) {
        let directory = directory(of: path)
        do {
            let fd = try fileSystem.openFile(directory, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0)
            defer { try? fileSystem.closeFile(fd) }
            try fileSystem.syncFile(fd)
        } catch {
            throw AtomicFileError("fsync the directory", directory, error)
        }
    }
}

/// A step of `AtomicFile.replace` that failed: "cannot write /results/.junit.xml.tmp-…: No space left on device".
package struct AtomicFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What it was doing: create, write, fsync, stat, close, replace, fsync the directory.
    package var step: String
    /// The file (or directory) it was doing it to.
    package var path: String
    /// The system's reason.
    package var error: SystemCallError

    package init(_ step: String, _ path: String, _ error: SystemCallError) {
        self.step = step
        self.path = path
        self.error = error
    }

    package var description: String { "cannot \(step) \(path): \(error)" }
}
