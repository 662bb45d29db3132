import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A test's end of a connected, blocking socket: it writes and reads without deadlines (run the reads with
/// `offPool`). A read waits for what the server sends, however long the server takes; a server that never
/// sends is a test that does not end, which the run's phase limit reports by name.
public enum BlockingSocket {
    /// Writes all of `bytes`; false when the peer is gone.
    public static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in send(fd, raw.baseAddress.map { $0 + written }, bytes.count - written, Int32(MSG_NOSIGNAL)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }

    /// The next `count` lines the peer sends (fewer when it closes first).
    public static func readLines(_ fd: Int32, count: Int) -> [String] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while received.filter({ $0 == 0x0A }).count < count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            received.append(contentsOf: buffer[0..<read])
        }
        return String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The next `count` bytes the peer sends (fewer when it closes first).
    public static func readBytes(_ fd: Int32, count: Int) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while received.count < count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, count - received.count)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            received.append(contentsOf: buffer[0..<read])
        }
        return received
    }

    /// Reads (and discards) until the peer ends the stream (or resets it): true then; false on another error.
    public static func readsEndOfStream(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            return count == 0 || errno == ECONNRESET || errno == EPIPE
        }
    }
}
