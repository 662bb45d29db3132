// Test kind: rootcanal — Android's Rootcanal, reached on a socket inside its network namespace.
import Foundation
@testable import HCITransports
@testable import HostCore
import Testing
import TestSupport

/// Android's Rootcanal, which scripts/test starts in the network namespace `hil-rootcanal` (it binds all
/// interfaces) and runs these suites inside it with HIL_ROOTCANAL set to its HCI moniker.
enum RootcanalPeer {
    static let moniker = ProcessInfo.processInfo.environment["HIL_ROOTCANAL"]

    /// The suites' trait: they run where Rootcanal is reachable.
    static let available = Testing.ConditionTrait.enabled(
        if: moniker != nil,
        "Rootcanal runs in its own network namespace: scripts/test runs this suite inside it (HIL_ROOTCANAL=tcp-client:127.0.0.1:6402)")

    static let lock = AsyncLock()

    /// `count` fresh controllers on Rootcanal's one air, opened one at a time (its listen backlog is 1).
    static func withControllers<T: Sendable>(_ count: Int, _ body: ([HCIHost]) async throws -> T) async throws -> T {
        let text = try #require(moniker)
        await lock.acquire()
        do {
            let rootcanal = try TransportMoniker(parsing: text)
            let result = try await withInitializedHosts(count, peer: "Rootcanal", open: { _ in try rootcanal.openStreamTransport() }, body)
            await lock.release()
            return result
        } catch {
            await lock.release()
            throw error
        }
    }
}
