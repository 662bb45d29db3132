import HCITransports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The answer lines a line protocol's client has been given but the kernel has not yet taken, oldest
/// first: written without ever blocking (the client's socket is non-blocking), and counted so that the
/// channel can bound them.
struct AnswerQueue {
    /// What one `flush` did.
    enum Flushed: Equatable {
        /// The kernel took this many bytes (0: it would take none now).
        case wrote(Int)
        /// The write failed (the client is gone): the errno, described.
        case failed(String)
    }

    private var bytes: [UInt8] = []
    private var start = 0

    /// Bytes queued and not yet written.
    var count: Int { bytes.count - start }
    var isEmpty: Bool { start == bytes.count }

    mutating func append(_ line: String) {
        bytes.append(contentsOf: line.utf8)
    }

    /// Writes what `fd` takes now: all of it, until the kernel would block (`EAGAIN`) or fails. On a
    /// blocking descriptor (standard output) the write waits for the reader instead.
    mutating func flush(to fd: Int32) -> Flushed {
        var wrote = 0
        while !isEmpty {
            let result = bytes.withUnsafeBytes { raw in POSIX.writeNoSignal(fd, raw.baseAddress.map { $0 + start }, count) }
            if result > 0 {
                start += result
                wrote += result
                continue
            }
            let code = errno
            if result < 0 && code == EINTR { continue }
            if result < 0 && (code == EAGAIN || code == EWOULDBLOCK) { break }
            return .failed(result == 0 ? "the write took nothing" : POSIX.describe(code))
        }
        if isEmpty {
            bytes.removeAll(keepingCapacity: bytes.count <= 4096)
            start = 0
        } else if start >= 4096 && start * 2 >= bytes.count {
            bytes.removeFirst(start)
            start = 0
        }
        return .wrote(wrote)
    }
}
