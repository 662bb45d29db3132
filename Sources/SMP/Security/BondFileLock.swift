// The store's lock across processes.
#if canImport(Glibc)
import Support
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EventLoops

/// One writer at a time across processes: flock(2) on `<bond file>.lock` beside the bond file, held while
/// a change reads the file, merges and replaces it. flock has no timeout of its own, so a writer that
/// finds it held tries again after a pause that grows from 1 ms to 50 ms, on the store's clock, until its
/// deadline. The kernel drops the lock when its holder exits, however it exits. Writers in one process
/// queue at `BondFileGate` first, so they never poll for each other.
struct BondFileLock {
    let lockPath: String
    let fd: Int32
    let fileSystem: any FileSystemCalls

    /// The lock file of the bond file at `path`.
    static func path(for path: String) -> String { path + ".lock" }

    /// Takes the lock of the bond file at `path`: this process's gate, then the flock, both by the deadline
    /// `options.lockTimeout` after `started` (when the change began) on `options.clock`.
    static func acquire(for path: String, started: LoopClock.Instant, options: BondStoreOptions) async throws(BondStoreError) -> BondFileLock {
        let lockPath = Self.path(for: path)
        let deadline = started.advanced(by: options.lockTimeout)
        do {
            try await BondFileGate.shared.enter(lockPath, until: deadline, on: options.clock)
        } catch {
            throw refusal(error, lockPath, started: started, options: options, holder: "another writer in this process")
        }
        do {
            return try await take(lockPath, deadline: deadline, started: started, options: options)
        } catch {
            BondFileGate.shared.leave(lockPath)
            throw error
        }
    }

    private static func take(_ lockPath: String, deadline: LoopClock.Instant, started: LoopClock.Instant,
                             options: BondStoreOptions) async throws(BondStoreError) -> BondFileLock {
        let files = options.fileSystem
        let fd: Int32
        do {
            fd = try files.openFile(lockPath, flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        } catch {
            throw .writeFailed("open the lock file", lockPath, error)
        }
        var pause = Duration.milliseconds(1)
        while true {
            do {
                try files.lockFile(fd, LOCK_EX | LOCK_NB)
                return BondFileLock(lockPath: lockPath, fd: fd, fileSystem: files)
            } catch where error.code == EWOULDBLOCK {
                let now = options.clock.now
                guard now < deadline else {
                    try? files.closeFile(fd)
                    throw refusal(.timedOut, lockPath, started: started, options: options, holder: "another process")
                }
                do {
                    try await options.clock.sleep(until: min(now.advanced(by: pause), deadline))
                } catch {
                    try? files.closeFile(fd)
                    throw refusal(.cancelled, lockPath, started: started, options: options, holder: "another process")
                }
                pause = min(pause * 2, .milliseconds(50))
            } catch {
                try? files.closeFile(fd)
                throw .writeFailed("lock", lockPath, error)
            }
        }
    }

    /// The error for a wait that ended without the lock: what it waited for, who holds it, for how long.
    private static func refusal(_ why: BondFileGate.Refusal, _ lockPath: String, started: LoopClock.Instant,
                                options: BondStoreOptions, holder: String) -> BondStoreError {
        switch why {
        case .timedOut:
            return BondStoreError(.lockTimedOut, path: lockPath,
                                  "gave up waiting for the lock \(lockPath) after \(formatDuration(options.lockTimeout)): \(holder) holds it")
        case .cancelled:
            let waited = started.duration(to: options.clock.now)
            return BondStoreError(.cancelled, path: lockPath,
                                  "cancelled after waiting \(formatDuration(waited)) for the lock \(lockPath), which \(holder) holds")
        }
    }

    /// Unlocks (closing the descriptor drops the flock) and hands this process's gate on.
    func release() {
        try? fileSystem.lockFile(fd, LOCK_UN)
        try? fileSystem.closeFile(fd)
        BondFileGate.shared.leave(lockPath)
    }
}
