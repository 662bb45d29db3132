#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Support

/// Disk space a run sets aside in its results directory when it starts, for its last write. When writing the
/// results fails (a full disk), the runner gives the space back and writes them again, so that junit.xml can
/// still say why the run is short instead of keeping an earlier, shorter version. The space is a file of
/// `size` bytes (`ResultsLayout.reserve`) allocated for real (`posix_fallocate(3)`, else zeros written), not a
/// sparse one that takes nothing.
public struct ResultsReserve: Sendable {
    /// 4 MiB: eight times the three files of a 25-case run with timelines (about 450 KB).
    public static let defaultSize = 4 << 20

    public let url: URL

    /// Sets `size` bytes aside in `layout`'s directory. Throws `ResultsError` naming the file and the reason
    /// (the disk is already full); nothing is left behind then.
    public static func make(in layout: ResultsLayout, size: Int = defaultSize) throws(ResultsError) -> ResultsReserve {
        let path = layout.reserve.path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ResultsError(path, "cannot set space aside: \(SystemCallError.current.description)") }
        var failure: String?
        let allocated = posix_fallocate(fd, 0, off_t(size))
        if allocated != 0 && allocated != EOPNOTSUPP && allocated != EINVAL { failure = SystemCallError(allocated).description }
        if allocated != 0 && failure == nil { failure = writeZeros(fd, size) }
        close(fd)
        if let failure {
            unlink(path)
            throw ResultsError(path, "cannot set \(size / 1024) KiB aside: \(failure)")
        }
        return ResultsReserve(url: layout.reserve)
    }

    /// Gives the space back (removes the file); true when it was there to give.
    @discardableResult
    public func release() -> Bool {
        unlink(url.path) == 0
    }

    /// Writes `size` zero bytes; nil, or why not.
    private static func writeZeros(_ fd: Int32, _ size: Int) -> String? {
        let block = [UInt8](repeating: 0, count: 65536)
        var left = size
        while left > 0 {
            let written = block.withUnsafeBytes { write(fd, $0.baseAddress, min(left, $0.count)) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return SystemCallError.current.description }
            left -= written
        }
        return fsync(fd) == 0 ? nil : SystemCallError.current.description
    }
}
