#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A capture file on disk, made private from its first byte: `open(2)` with `O_CREAT | O_EXCL` and mode 0600
/// (narrowed further by the umask, never widened), as the bond store makes its files — never created wider
/// and chmodded after, which leaves a moment in which another user can open it and keep reading.
///
/// A capture of a secured link is as private as the bond store: its keys are redacted by default
/// (`CaptureKeys`), but `--capture-keys` keeps them, and the rest still says which devices met and what
/// they exchanged.
struct CaptureFile {
    /// open(2) as the file is created: path, flags, mode; the descriptor, or -1 with errno set. Tests watch
    /// the flags and mode through it.
    typealias Open = @Sendable (String, Int32, mode_t) -> Int32

    /// The mode a capture file is created with.
    static let mode: mode_t = 0o600
    /// The flags it is created with: a new file (`O_EXCL`, which also refuses a symbolic link in its place),
    /// write-only, not inherited by child processes.
    static let flags: Int32 = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
    /// The system's open(2).
    static let systemOpen: Open = { path, flags, mode in open(path, flags, mode) }

    /// The descriptor; -1 once closed or after a write failed.
    private(set) var descriptor: Int32

    /// Creates the capture at `path`. A regular file or symbolic link already there is removed first, so the
    /// capture is a new file (whoever holds the old one open, or could read it, does not see the new one);
    /// anything else there (a directory, a FIFO, a device) is an error naming it.
    static func create(_ path: String, opening: Open = systemOpen) throws(HCITransportError) -> CaptureFile {
        var status = stat()
        if lstat(path, &status) == 0 {
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFLNK else {
                throw HCITransportError(.io, "cannot create capture file \(path): \(describe(kind)) is there, not a regular file")
            }
            guard unlink(path) == 0 else { throw failure(path) }
        } else if errno != ENOENT {
            throw failure(path)
        }
        let descriptor = opening(path, flags, mode)
        guard descriptor >= 0 else { throw failure(path) }
        return CaptureFile(descriptor: descriptor)
    }

    /// Writes all of `bytes` (one write(2) unless the kernel takes fewer). After a failure — a full disk —
    /// the file is closed and later writes are dropped, so that a record is never followed by the half of one.
    mutating func write(_ bytes: [UInt8]) {
        guard descriptor >= 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                systemWrite(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                close()
                return
            }
            offset += written
        }
    }

    /// Closes the file; later writes are dropped.
    mutating func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }

    private static func failure(_ path: String) -> HCITransportError {
        let code = errno
        let kind: HCITransportError.Kind = code == EACCES || code == EPERM ? .permissionDenied : .io
        return HCITransportError(kind, "cannot create capture file \(path): \(String(cString: strerror(code)))")
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "something"
        }
    }
}

/// `write(2)`, named apart from `CaptureFile.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// `close(2)`, named apart from `CaptureFile.close`.
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
