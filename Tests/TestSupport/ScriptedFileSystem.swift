import Support
import Foundation
import SMP
import Synchronization

/// The system's calls, except that the one the test names fails with its errno (or, for a full disk, the
/// temporary file is /dev/full, where the kernel's own write fails with ENOSPC); and every open that
/// creates is recorded with its flags, its mode and the mode the file had the moment it existed.
public final class ScriptedFileSystem: FileSystemCalls {
    public enum Operation: Sendable, Hashable, CustomStringConvertible {
        case open, write, fsync, rename, mkdir, flock, unlink
        public var description: String { "\(self)" }
    }

    /// One open(2) that could create a file.
    public struct Creation: Sendable {
        public let path: String
        public let flags: Int32
        public let mode: UInt32
        /// fstat(2)'s permission bits right after the open, before anything was written.
        public let modeAtCreation: UInt32
    }

    private struct Script {
        /// Fail `operation` on paths ending with `suffix` with errno `code`.
        var failure: (operation: Operation, suffix: String, code: Int32)?
        /// Open /dev/full in place of files ending with this suffix.
        var fullDeviceFor: String?
        public var creations: [Creation] = []
    }

    private let system = SystemFileSystemCalls()
    private let script: Mutex<Script>

    public init() {
        script = Mutex(Script())
    }

    /// From now on, `operation` on paths ending with `suffix` fails with errno `code`.
    public func fail(_ operation: Operation, on suffix: String, errno code: Int32) {
        script.withLock { $0.failure = (operation, suffix, code) }
    }

    /// From now on, opening a file whose path ends with `suffix` opens /dev/full instead: a disk that is full.
    public func fillDisk(for suffix: String) {
        script.withLock { $0.fullDeviceFor = suffix }
    }

    /// Makes later calls succeed.
    public func heal() { script.withLock { $0.failure = nil; $0.fullDeviceFor = nil } }

    public var creations: [Creation] { script.withLock { $0.creations } }

    private func check(_ operation: Operation, _ path: String) throws(SystemCallError) {
        let failure = script.withLock { $0.failure }
        if let failure, failure.operation == operation, path.hasSuffix(failure.suffix) { throw SystemCallError(failure.code) }
    }

    /// Paths by descriptor, for failures named by path on calls that take a descriptor.
    private let paths = Mutex<[Int32: String]>([:])
    private func path(of fd: Int32) -> String { paths.withLock { $0[fd] ?? "" } }

    public func openFile(_ path: String, flags: Int32, mode: UInt32) throws(SystemCallError) -> Int32 {
        try check(.open, path)
        let full = script.withLock { script in script.fullDeviceFor.map { path.hasSuffix($0) } ?? false }
        let fd = full ? try system.openFile("/dev/full", flags: O_WRONLY | O_CLOEXEC, mode: 0)
                      : try system.openFile(path, flags: flags, mode: mode)
        paths.withLock { $0[fd] = path }
        if flags & O_CREAT != 0 {
            let observed = (try? system.fileStamp(of: fd))?.mode ?? 0
            script.withLock { $0.creations.append(Creation(path: path, flags: flags, mode: mode, modeAtCreation: observed)) }
        }
        return fd
    }

    public func closeFile(_ fd: Int32) throws(SystemCallError) {
        paths.withLock { $0[fd] = nil }
        try system.closeFile(fd)
    }

    public func readFile(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try system.readFile(fd, into: buffer)
    }

    public func writeFile(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
        try check(.write, path(of: fd))
        return try system.writeFile(fd, bytes)
    }

    public func syncFile(_ fd: Int32) throws(SystemCallError) {
        try check(.fsync, path(of: fd))
        try system.syncFile(fd)
    }

    public func lockFile(_ fd: Int32, _ operation: Int32) throws(SystemCallError) {
        try check(.flock, path(of: fd))
        try system.lockFile(fd, operation)
    }

    public func fileStamp(of fd: Int32) throws(SystemCallError) -> FileStamp { try system.fileStamp(of: fd) }

    public func fileStamp(atPath path: String) throws(SystemCallError) -> FileStamp { try system.fileStamp(atPath: path) }

    public func renameFile(_ from: String, to: String) throws(SystemCallError) {
        try check(.rename, to)
        try system.renameFile(from, to: to)
    }

    public func removeFile(_ path: String) throws(SystemCallError) {
        try check(.unlink, path)
        try system.removeFile(path)
    }

    public func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError) {
        try check(.mkdir, path)
        try system.makeDirectory(path, mode: mode)
    }
}
