import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to `url` as an executable script (mode 0755), through a descriptor that is close-on-exec.
///
/// A script written through Foundation is open for writing without close-on-exec for a moment: a child that
/// another test forks meanwhile inherits that descriptor and keeps it past its exec (a `sleep 30` keeps it for
/// 30 s), and every start of the script fails with ETXTBSY until it ends. Tests that run in parallel with
/// tests starting children write their scripts here.
public func writeScript(_ text: String, to url: URL) throws {
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw PeerError("cannot write the script \(url.path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { throw PeerError("cannot write the script \(url.path): \(String(cString: strerror(errno)))") }
        written += count
    }
    guard fchmod(fd, 0o755) == 0 else { throw PeerError("cannot make \(url.path) executable: \(String(cString: strerror(errno)))") }
}

/// What `wanted` gives, or nil when `task` ends first: a test awaiting what a child process will announce (or a
/// deadline the code under test will arm) stops waiting when the code that would do it has ended, instead of
/// waiting for ever. `wanted` is left to end on its own, if ever.
public func value<T: Sendable, Success: Sendable, Failure: Error>(of wanted: @escaping @Sendable () async -> T,
                                                                   unlessEnded task: Task<Success, Failure>) async -> T? {
    let first = FirstOf<T?>()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        first.begin(continuation)
        Task { first.offer(await wanted()) }
        Task {
            _ = await task.result
            first.offer(nil)
        }
    }
}

/// Resumes a continuation with the first value offered.
private final class FirstOf<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, Never>?>(nil)

    func begin(_ continuation: CheckedContinuation<T, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func offer(_ value: T) {
        let taken = continuation.withLock { stored -> CheckedContinuation<T, Never>? in
            defer { stored = nil }
            return stored
        }
        taken?.resume(returning: value)
    }
}
