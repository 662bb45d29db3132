#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads an input file that must be a regular file. A FIFO, directory, socket or device is named as what
/// it is — never opened for a blocking read, never described in Foundation's error-domain words — and a
/// file that cannot be opened is named with the system's reason ("Permission denied").
enum RegularFile {
    /// The bytes of the regular file at `url`, or an error naming the file and what is wrong with it; with a
    /// `limit`, a file larger than it is refused by its size (`limitName` says which limit) and read no further.
    static func contents(of url: URL, limit: Int? = nil, limitName: String = "") throws(ResultsError) -> Data {
        // O_NONBLOCK: opening a FIFO without a writer must not wait for one.
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw ResultsError(url.path, "cannot read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ResultsError(url.path, "cannot read: \(String(cString: strerror(errno)))") }
        if let kind = kind(status.st_mode) { throw ResultsError(url.path, "\(kind), not a regular file") }
        if let limit, status.st_size > limit { throw ResultsError(url.path, "\(status.st_size) bytes, more than \(limitName) = \(limit)") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ResultsError(url.path, "cannot read: \(String(cString: strerror(errno)))") }
            if count == 0 { return data }
            data.append(contentsOf: buffer.prefix(count))
            if let limit, data.count > limit { throw ResultsError(url.path, "more than \(limitName) = \(limit) bytes (it grew while read)") }
        }
    }

    /// What a file that is not regular is, from its `st_mode`; nil for a regular file.
    private static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a file"
        }
    }
}
