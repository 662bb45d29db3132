#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Follows a file that another process appends to (`tail -f` by polling): each `readLines()` returns the
/// lines completed since the last call, with their 1-based numbers; a line still being written stays
/// buffered until its newline arrives. Reads at most `limit` bytes per call so one poll stays bounded.
public final class FileTail {
    let path: String
    private var fd: Int32 = -1
    private var pending: [UInt8] = []
    private var nextLine = 1
    private let limit: Int

    public init(path: String, limit: Int = 4 << 20) {
        self.path = path
        self.limit = limit
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Complete lines appended since the last call (empty while the file does not exist yet).
    public func readLines() -> [(number: Int, bytes: [UInt8])] {
        if fd < 0 {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { return [] }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while total < limit {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            pending += buffer.prefix(count)
            total += count
        }
        var lines: [(number: Int, bytes: [UInt8])] = []
        var start = pending.startIndex
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            let line = Array(pending[start..<newline])
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { lines.append((nextLine, line)) }
            nextLine += 1
            start = newline + 1
        }
        pending.removeSubrange(pending.startIndex..<start)
        return lines
    }

    /// The unterminated last line, if the writer stopped in the middle of one, and its number.
    public var incompleteLine: (number: Int, bytes: [UInt8])? {
        pending.isEmpty ? nil : (nextLine, pending)
    }
}
