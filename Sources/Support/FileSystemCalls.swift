// File system calls behind a protocol a test can stand in for: the bond store and atomic file replacement make them.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed: its errno, read as the system's text (`No space left on device`).
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno value.
    public var code: Int32

    /// The failure with errno value `code`.
    public init(_ code: Int32) { self.code = code }

    /// The errno value the calling thread holds now.
    public static var current: SystemCallError { SystemCallError(errno) }

    /// `strerror(3)`'s text.
    public var description: String { String(cString: strerror(code)) }
}

/// What a file is, as far as telling one version of a file from the next (the bond store's): `AtomicFile` replaces
/// the file by a rename, so every version is a new inode.
public struct FileStamp: Sendable, Hashable {
    /// The device the file is on.
    public var device: UInt64
    /// Its inode number: a new one for each version the store writes.
    public var inode: UInt64
    /// Its size in bytes.
    public var size: Int64
    /// The modification time in nanoseconds since the epoch.
    public var modified: Int64
    /// The permission bits.
    public var mode: UInt32

    /// Whether it is the same version of a file as `other` (the mode aside).
    public func isSameVersion(as other: FileStamp) -> Bool {
        device == other.device && inode == other.inode && size == other.size && modified == other.modified
    }
}

/// The few file operations the bond store and `AtomicFile` make, one system call each (as swift-system wraps them), so
/// that a test can make one fail — a full disk, a read-only file system — or watch how a file is made.
/// Each throws the call's errno; the system's retries a call that EINTR interrupted.
public protocol FileSystemCalls: Sendable {
    /// open(2): the descriptor.
    func openFile(_ path: String, flags: Int32, mode: UInt32) throws(SystemCallError) -> Int32
    /// close(2).
    func closeFile(_ fd: Int32) throws(SystemCallError)
    /// read(2) into `buffer`: the count read, 0 at the end of the file.
    func readFile(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int
    /// write(2) from `bytes`: the count written.
    func writeFile(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int
    /// fsync(2).
    func syncFile(_ fd: Int32) throws(SystemCallError)
    /// flock(2) with `operation` (LOCK_EX | LOCK_NB, LOCK_UN).
    func lockFile(_ fd: Int32, _ operation: Int32) throws(SystemCallError)
    /// fstat(2).
    func fileStamp(of fd: Int32) throws(SystemCallError) -> FileStamp
    /// stat(2).
    func fileStamp(atPath path: String) throws(SystemCallError) -> FileStamp
    /// rename(2).
    func renameFile(_ from: String, to: String) throws(SystemCallError)
    /// unlink(2).
    func removeFile(_ path: String) throws(SystemCallError)
    /// mkdir(2).
    func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError)
}

/// The system's own calls.
public struct SystemFileSystemCalls: FileSystemCalls {
    /// The system's calls.
    public init() {}

    public func openFile(_ path: String, flags: Int32, mode: UInt32) throws(SystemCallError) -> Int32 {
        try retryingEINTR { open(path, flags, mode_t(mode)) }
    }

    public func closeFile(_ fd: Int32) throws(SystemCallError) {
        // Linux releases the descriptor even when close reports an error: never retried.
        if close(fd) != 0 { throw .current }
    }

    public func readFile(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try retryingEINTR { read(fd, buffer.baseAddress, buffer.count) }
    }

    public func writeFile(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try retryingEINTR { write(fd, bytes.baseAddress, bytes.count) }
    }

    public func syncFile(_ fd: Int32) throws(SystemCallError) {
        _ = try retryingEINTR { fsync(fd) }
    }

    public func lockFile(_ fd: Int32, _ operation: Int32) throws(SystemCallError) {
        _ = try retryingEINTR { flock(fd, operation) }
    }

    public func fileStamp(of fd: Int32) throws(SystemCallError) -> FileStamp {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .current }
        return Self.stamp(status)
    }

    public func fileStamp(atPath path: String) throws(SystemCallError) -> FileStamp {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .current }
        return Self.stamp(status)
    }

    public func renameFile(_ from: String, to: String) throws(SystemCallError) {
        if rename(from, to) != 0 { throw .current }
    }

    public func removeFile(_ path: String) throws(SystemCallError) {
        if unlink(path) != 0 { throw .current }
    }

    public func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError) {
        if mkdir(path, mode_t(mode)) != 0 { throw .current }
    }

    /// Runs `call` again while it fails with EINTR; its result, or the errno it failed with.
    private func retryingEINTR<T: BinaryInteger>(_ call: () -> T) throws(SystemCallError) -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            if errno != EINTR { throw .current }
        }
    }

    static func stamp(_ status: stat) -> FileStamp {
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return FileStamp(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                         modified: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
                         mode: UInt32(status.st_mode) & 0o7777)
    }
}
