import HCI
import Simulation
import TestSupport

/// Builds a simulated world, opens and initializes hosts on some of its controllers, runs the test's
/// body, then closes the hosts and shuts the world down, whatever the body did.
enum SimulatedWorldFixture {
    /// Two controllers with 27-byte × 4 LE buffers (so ACL fragments), at real-time timings.
    static let twoControllers = SimulatedWorldDescription(
        controllers: [
            .init(name: "central", address: BDAddress(0x00_5A_1D_00_00_01), rssi: -62, leBufferLength: 27, leBufferCount: 4),
            .init(name: "peripheral", address: BDAddress(0x00_5A_1D_00_00_02), rssi: -48, leBufferLength: 27, leBufferCount: 4),
        ],
        powerSwitch: .init(ports: [.init(number: 1, controller: "peripheral"), .init(number: 2, controller: "central")]))

    /// `description` on virtual time: what the air does in a window (a 150 ms scan, the first advertising event)
    /// is what the spec's timings give, however loaded the machine — time stands still while anything computes.
    static func onVirtualTime(_ description: SimulatedWorldDescription = twoControllers) -> SimulatedWorldDescription {
        var virtual = description
        virtual.timing.clock = .virtual
        return virtual
    }

    /// Runs `body` with a world built from `description` and initialized hosts on `names`.
    static func with<T: Sendable>(_ description: SimulatedWorldDescription = twoControllers, hosts names: [String],
                                  _ body: (SimulatedWorld, [HCIHost]) async throws -> T) async throws -> T {
        let world = try SimulatedWorld(description)
        do {
            // On a virtual-time world the body is a drive of its clock (time jumps while everything waits); on real
            // time the drive is the body itself.
            let result = try await world.air.clock.drive { () async throws -> T in
                try await withInitializedHosts(names.count, peer: "simulated world", open: { try world.openTransport(named: names[$0]) }) { hosts in
                    try await body(world, hosts)
                }
            }
            await world.shutdown()
            return result
        } catch {
            await world.shutdown()
            throw error
        }
    }
}
