#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input file — a rig, a profile, a plan, a profile's file of values — read no further than its limit: a
/// regular file larger than the limit is refused by its size before a byte of it is read, and anything else
/// (a FIFO, a process substitution, `/dev/stdin`) is read to one byte past the limit at most.
package enum InputFile {
    /// The file's bytes; or a `InputError` without the file's name (`InputError.inFile` adds it) saying why not:
    /// `cannot read it (no such file)`, `10485804 bytes, more than InputLimits.fileBytes = 1048576`.
    ///
    /// - Parameters:
    ///   - limit: the most bytes the file may hold.
    ///   - limitName: how the message names the limit (`InputLimits.fileBytes`).
    package static func contents(_ path: String, limit: Int, limitName: String = "InputLimits.fileBytes") throws(InputError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError(errno == ENOENT ? "cannot read it (no such file)" : "cannot read it (permission denied, or not a file)")
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > limit {
            throw InputError("\(status.st_size) bytes, more than \(limitName) = \(limit)")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let wanted = min(buffer.count, limit + 1 - bytes.count)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw InputError("cannot read it (permission denied, or not a file)") }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
            if bytes.count > limit { throw InputError("more than \(limitName) = \(limit) bytes") }
        }
    }
}
