// Test kind: peer — BlueZ's btvirt, a real controller on real time.
import Foundation
import HCITransports
import HostCore

/// BlueZ's btvirt, started through scripts/peers/btvirt (which builds the AF_ALG shim it needs on this
/// kernel). Its sockets sit at fixed /tmp paths and all its controllers share one air, so every test that
/// uses it, in any target or process, holds an flock on `lockPath` and runs alone.
public enum BtvirtPeer {
    public static let lePath = "/tmp/bt-server-le"
    /// Shared with every test target's btvirt tests (they all run in one process, and other processes
    /// may use btvirt too): an flock on this file.
    public static let lockPath = "/tmp/hil-btvirt.lock"

    /// Starts btvirt unless a live one answers; throws with the script's own message when it cannot.
    public static func ensureRunning() async throws {
        let script = repositoryRoot.appendingPathComponent("scripts/peers/btvirt").path
        if await runProgram(script, ["status"]).status == 0 { return }
        let started = await runProgram(script, ["start"])
        guard started.status == 0 else {
            throw PeerError("cannot start btvirt: \(started.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    /// Runs `body` with `count` fresh, initialized LE controllers on btvirt, serialized with every other
    /// btvirt test; closes them after.
    public static func withControllers<T: Sendable>(_ count: Int, _ body: ([HCIHost]) async throws -> T) async throws -> T {
        let lock = try await FileLock.acquire(path: lockPath, timeout: .seconds(120))
        defer { lock.release() }
        try await ensureRunning()
        let result = try await withInitializedHosts(count, peer: "btvirt", open: { _ in
            try TransportMoniker.unix(path: lePath).openStreamTransport()
        }, body)
        // btvirt frees a slot when it sees the close; give it a moment so the next test gets fresh slots.
        try await Task.sleep(for: .milliseconds(20))
        return result
    }
}
