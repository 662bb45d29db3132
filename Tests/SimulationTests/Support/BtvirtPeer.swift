import Foundation
import HCI
#if canImport(Glibc)
import Glibc
#endif

/// BlueZ's btvirt, started through scripts/peers/btvirt. Its sockets sit at fixed /tmp paths and all its
/// controllers share one air, so every test that uses it — in this target or another — holds an
/// exclusive flock on /tmp/hil-btvirt.lock while it runs.
enum BtvirtPeer {
    static let lePath = "/tmp/bt-server-le"
    static let lockPath = "/tmp/hil-btvirt.lock"
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts btvirt unless a live one answers; throws with the script's own message when it cannot.
    static func ensureRunning() async throws {
        let script = repositoryRoot.appendingPathComponent("scripts/peers/btvirt").path
        if await run(script, ["status"]).status == 0 { return }
        let started = await run(script, ["start"])
        guard started.status == 0 else {
            throw TestFailure("cannot start btvirt: \(started.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    /// Runs `body` with `count` fresh, initialized LE controllers on btvirt while holding the btvirt lock
    /// (waiting at most `lockTimeout` for it); closes them after.
    static func withControllers<T: Sendable>(_ count: Int, lockTimeout: Duration = .seconds(60),
                                             _ body: ([HCIHost]) async throws -> T) async throws -> T {
        let lock = try await FileLock.acquire(path: lockPath, timeout: lockTimeout)
        defer { lock.release() }
        try await ensureRunning()
        var hosts: [HCIHost] = []
        do {
            for index in 0..<count {
                let transport = try TransportMoniker.unix(path: lePath).openStreamTransport()
                let host = try HCIHost(transport: transport)
                hosts.append(host)
                do {
                    try await host.initialize()
                } catch {
                    throw TestFailure("btvirt controller \(index) did not initialize: \(error)")
                }
            }
            let result = try await body(hosts)
            for host in hosts { await host.close() }
            // btvirt frees a slot when it sees the close; give it a moment so the next user gets fresh slots.
            try await Task.sleep(for: .milliseconds(20))
            return result
        } catch {
            for host in hosts { await host.close() }
            throw error
        }
    }

    /// Runs a program on a Dispatch thread (never blocking Swift's cooperative pool).
    static func run(_ path: String, _ arguments: [String]) async -> (status: Int32, output: String) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: path)
                process.arguments = arguments
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                do {
                    try process.run()
                } catch {
                    continuation.resume(returning: (127, "\(path): \(error)"))
                    return
                }
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    }
}

/// An exclusive flock(2) on a file, shared by every process (and every open in this one) that takes it.
/// Acquired by polling LOCK_NB every 10 ms up to a deadline, so no thread blocks in the kernel.
final class FileLock: Sendable {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    static func acquire(path: String, timeout: Duration) async throws -> FileLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw TestFailure("cannot open \(path): \(String(cString: strerror(errno)))") }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                let why = errno == EWOULDBLOCK ? "still held by another test after \(timeout)" : String(cString: strerror(errno))
                close(fd)
                throw TestFailure("cannot lock \(path): \(why)")
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
    func release() {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
}
