#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import EventLoops
import HILResults
import Synchronization

/// Who holds a rig: written into the lock file by the holder, read by whoever finds the rig busy.
package struct RigLockHolder: Codable, Sendable, Hashable, CustomStringConvertible {
    package var pid: Int32
    package var host: String
    package var started: Date
    /// The holder's command line, e.g. `hil run --rig rigs/lab-bench-1.json`.
    package var command: String
    package var rig: String

    /// "PID 1234 on bench-host since 14:02:11 (hil run --rig rigs/lab-bench-1.json)".
    package var description: String {
        "PID \(pid) on \(host) since \(RigLock.clockTime(started)) (\(command))"
    }

    /// Whether this process still runs — answerable only on the holder's own host.
    package var isAliveOnThisHost: Bool? {
        guard host == RunContext.hostName() else { return nil }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

/// Why a rig could not be locked.
package struct RigLockError: Error, CustomStringConvertible, Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// Another runner holds the rig (and kept it past the wait).
        case held
        /// The lock file or its directory cannot be used.
        case unusable
        /// The wait was cancelled.
        case cancelled
    }

    package var kind: Kind
    package var description: String
    package var holder: RigLockHolder?

    package init(_ kind: Kind, _ description: String, holder: RigLockHolder? = nil) {
        self.kind = kind
        self.description = description
        self.holder = holder
    }
}

/// An exclusive lock on one rig, so two runs never drive one bench: `flock(2)` on
/// `<HIL_LOCK_DIR or /tmp/hil-locks>/<rig name>.lock`, holding a JSON `RigLockHolder`.
///
/// The kernel drops a `flock` when its holder exits however it exits, so a holder that died leaves the
/// lock free with its record still in the file: the next runner takes the lock over and says whose it
/// was. The descriptor is close-on-exec, so processes a run starts (a peer that outlives it) never keep
/// the rig locked. Release truncates the record before unlocking.
package final class RigLock: Sendable {
    /// The lock file.
    package let url: URL
    package let rigName: String
    /// The holder this lock replaced: a process that died without releasing it.
    package let tookOverFrom: RigLockHolder?
    private let descriptor: Mutex<Int32>

    private init(url: URL, rigName: String, fd: Int32, tookOverFrom: RigLockHolder?) {
        self.url = url
        self.rigName = rigName
        self.tookOverFrom = tookOverFrom
        self.descriptor = Mutex(fd)
    }

    deinit { release() }

    /// `HIL_LOCK_DIR`, else `/tmp/hil-locks`.
    package static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["HIL_LOCK_DIR"], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
        return URL(fileURLWithPath: "/tmp/hil-locks", isDirectory: true)
    }

    /// `<directory>/<sanitized rig name>.lock`.
    package static func lockFile(rigName: String, directory: URL) -> URL {
        directory.appendingPathComponent(ResultsLayout.sanitize(rigName) + ".lock")
    }

    /// Takes the rig's lock, waiting up to `wait` (zero: fail at once) while another process holds it, looking
    /// again every `pollInterval`; the wait and the polls are on `clock` (real time unless a test gives its own),
    /// the last look exactly at the end of the wait. `notice` hears, once, that the rig is busy and who holds it,
    /// and that a dead holder's lock was taken over.
    package static func acquire(rigName: String, command: String, wait: Duration = .zero,
                               directory: URL = defaultDirectory(), pollInterval: Duration = .milliseconds(200),
                               clock: LoopClock = .real,
                               notice: @Sendable (String) -> Void = { _ in }) async throws(RigLockError) -> RigLock {
        let url = lockFile(rigName: rigName, directory: directory)
        try makeDirectory(directory)
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw RigLockError(.unusable, "cannot open the lock file \(url.path): \(String(cString: strerror(errno)))") }
        _ = fchmod(fd, 0o666)  // one lock directory for every user of a shared bench host
        let start = clock.now
        var announced = false
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { break }
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                close(fd)
                throw RigLockError(.unusable, "cannot lock \(url.path): \(String(cString: strerror(code)))")
            }
            let holder = readHolder(fd)
            let who = holderText(holder, url: url)
            let waited = clock.now - start
            if waited >= wait {
                close(fd)
                let tail = wait > .zero ? "; waited \(ProgressText.duration(wait / .seconds(1)))" : " (use --wait SECONDS to wait for it)"
                throw RigLockError(.held, "rig \(rigName) is held by \(who)\(tail)", holder: holder)
            }
            if !announced {
                notice("rig \(rigName) is held by \(who); waiting up to \(ProgressText.duration(wait / .seconds(1)))")
                announced = true
            }
            do { try await Task.sleep(for: min(pollInterval, wait - waited), clock: clock) } catch {
                close(fd)
                throw RigLockError(.cancelled, "cancelled while waiting for rig \(rigName), held by \(who)", holder: holder)
            }
        }
        // Locked. A record left in the file is from a holder that died without releasing it.
        let previous = readHolder(fd)
        let leftover = previous == nil && fileSize(fd) > 0
        if let previous {
            notice("took over the lock of rig \(rigName) from \(previous), which ended without releasing it")
        } else if leftover {
            notice("took over the lock of rig \(rigName); the lock file held an unreadable holder record")
        }
        let holder = RigLockHolder(pid: getpid(), host: RunContext.hostName(), started: Date(), command: command, rig: rigName)
        do {
            try writeHolder(holder, fd: fd)
        } catch {
            _ = flock(fd, LOCK_UN)
            close(fd)
            throw RigLockError(.unusable, "cannot write the holder record into \(url.path): \(error)")
        }
        return RigLock(url: url, rigName: rigName, fd: fd, tookOverFrom: previous)
    }

    /// Clears the holder record and unlocks. Safe to call more than once.
    package func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = ftruncate(fd, 0)
            _ = flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    /// Reads the holder record of a rig's lock file without locking (for messages and tests).
    package static func currentHolder(rigName: String, directory: URL = defaultDirectory()) -> RigLockHolder? {
        let fd = open(lockFile(rigName: rigName, directory: directory).path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readHolder(fd)
    }

    static func holderText(_ holder: RigLockHolder?, url: URL) -> String {
        guard let holder else { return "another process (the lock file \(url.path) has no holder record yet)" }
        if holder.isAliveOnThisHost == false {
            return "\(holder) — that process has ended, but a process it started still holds the lock (see `fuser \(url.path)`)"
        }
        return holder.description
    }

    private static func makeDirectory(_ directory: URL) throws(RigLockError) {
        var status = stat()
        if stat(directory.path, &status) == 0 { return }
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            throw RigLockError(.unusable, "cannot create the lock directory \(directory.path): \(ResultsLayout.reason(error))")
        }
        _ = chmod(directory.path, 0o1777)
    }

    private static func fileSize(_ fd: Int32) -> Int {
        var status = stat()
        return fstat(fd, &status) == 0 ? Int(status.st_size) : 0
    }

    private static func readHolder(_ fd: Int32) -> RigLockHolder? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while bytes.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer.prefix(count)
            offset += off_t(count)
        }
        guard !bytes.isEmpty else { return nil }
        return try? TestRecord.makeDecoder().decode(RigLockHolder.self, from: Data(bytes))
    }

    private static func writeHolder(_ holder: RigLockHolder, fd: Int32) throws {
        let data = try TestRecord.makeEncoder().encode(holder) + Data("\n".utf8)
        guard ftruncate(fd, 0) == 0 else { throw ResultsError("lock", "ftruncate: \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { raw in pwrite(fd, raw.baseAddress, raw.count, 0) }
        guard written == data.count else { throw ResultsError("lock", "pwrite: \(String(cString: strerror(errno)))") }
        _ = fsync(fd)
    }

    /// "14:02:11" today, "2026-11-28 14:02:11" on another day (local time).
    static func clockTime(_ date: Date) -> String {
        func parts(_ date: Date) -> tm {
            var seconds = time_t(date.timeIntervalSince1970)
            var result = tm()
            localtime_r(&seconds, &result)
            return result
        }
        let then = parts(date)
        let now = parts(Date())
        let time = String(format: "%02d:%02d:%02d", then.tm_hour, then.tm_min, then.tm_sec)
        if then.tm_year == now.tm_year && then.tm_yday == now.tm_yday { return time }
        return String(format: "%04d-%02d-%02d ", then.tm_year + 1900, then.tm_mon + 1, then.tm_mday) + time
    }
}
