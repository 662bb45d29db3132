// Test kind: peer — an flock shared with other processes (btvirt's users), taken by polling on the wall clock.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive flock(2) on a file, shared by every process (and every open in this one) that takes it.
/// Acquired by polling LOCK_NB every 10 ms up to a deadline, so no thread blocks in the kernel.
public final class FileLock: Sendable {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    public static func acquire(path: String, timeout: Duration) async throws -> FileLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw PeerError("cannot open \(path): \(String(cString: strerror(errno)))") }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                let why = errno == EWOULDBLOCK ? "still held by another test after \(timeout)" : String(cString: strerror(errno))
                close(fd)
                throw PeerError("cannot lock \(path): \(why)")
            }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                close(fd)
                throw error
            }
        }
        return FileLock(fd: fd)
    }

    /// Releases the lock (closing the descriptor drops it).
    public func release() {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
}
