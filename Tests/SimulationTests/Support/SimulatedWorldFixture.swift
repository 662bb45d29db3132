import HCIPackets
import HostCore
import Simulation
import TestSupport

/// Builds a simulated world on virtual time, opens and initializes hosts on some of its controllers, runs the
/// test's body as a drive of the world's clock, then closes the hosts and shuts the world down, whatever the
/// body did.
///
/// Every world a unit test builds runs on virtual time (`timing.clock = .virtual`): the air, the hosts on its
/// controllers (they share the air's loop) and the body all run on the clock's one loop, so time stands still
/// while anything computes and jumps to the next deadline when everything waits. What the air does in a window
/// (a 150 ms scan, a supervision timeout) is what the spec's timings give, however loaded the machine, and a
/// test measures it on `world.air.clock`, to the nanosecond. A world on real time (`.real`, the served air) is
/// only for tests of the peer kind.
enum SimulatedWorldFixture {
    /// Two controllers with 27-byte × 4 LE buffers (so ACL fragments), on virtual time.
    static let twoControllers = onVirtualTime(SimulatedWorldDescription(
        controllers: [
            .init(name: "central", address: BDAddress(0x00_5A_1D_00_00_01), rssi: -62, leBufferLength: 27, leBufferCount: 4),
            .init(name: "peripheral", address: BDAddress(0x00_5A_1D_00_00_02), rssi: -48, leBufferLength: 27, leBufferCount: 4),
        ],
        powerSwitch: .init(ports: [.init(number: 1, controller: "peripheral"), .init(number: 2, controller: "central")])))

    /// `description` on virtual time: what the air does in a window (a 150 ms scan, the first advertising event)
    /// is what the spec's timings give, however loaded the machine — time stands still while anything computes.
    static func onVirtualTime(_ description: SimulatedWorldDescription = twoControllers) -> SimulatedWorldDescription {
        var virtual = description
        virtual.timing.clock = .virtual
        return virtual
    }

    /// Runs `body` with a world built from `description` (on virtual time, whatever its timing says) and
    /// initialized hosts on `names`.
    static func with<T: Sendable>(_ description: SimulatedWorldDescription = twoControllers, hosts names: [String],
                                  _ body: (SimulatedWorld, [HCIHost]) async throws -> T) async throws -> T {
        try await drive(onVirtualTime(description)) { world in
            try await withInitializedHosts(names.count, peer: "simulated world", open: { try world.openTransport(named: names[$0]) }) { hosts in
                try await body(world, hosts)
            }
        }
    }

    /// Runs `body` with a world built from `description` (on virtual time, whatever its timing says), as a
    /// drive of the world's clock: for tests that open their own hosts or devices on it. Shuts the world down
    /// after, whatever the body did.
    static func drive<T: Sendable>(_ description: SimulatedWorldDescription = twoControllers,
                                   _ body: (SimulatedWorld) async throws -> T) async throws -> T {
        let world = try SimulatedWorld(onVirtualTime(description))
        do {
            // Time jumps while everything on the world's loop waits: the body runs on that loop (the drive's
            // executor), and so does every child task it starts.
            let result = try await world.air.clock.drive { () async throws -> T in try await body(world) }
            await world.shutdown()
            return result
        } catch {
            await world.shutdown()
            throw error
        }
    }
}
