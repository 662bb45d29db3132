import HCI
import Simulation

/// A world with an initialized central and peripheral already connected.
struct ConnectedPair {
    let world: SimulatedWorld
    let central: HCIHost
    let peripheral: HCIHost
    let centralHandle: UInt16
    let peripheralHandle: UInt16

    /// 30 ms interval, 200 ms supervision timeout: short, in realistic ratio.
    static let fastLink = ConnectionParameters(intervalMin: 0x0018, intervalMax: 0x0018, latency: 0, supervisionTimeout: 0x0014)

    static func with<T: Sendable>(_ description: SimulatedWorldDescription = SimulatedWorldFixture.twoControllers,
                                  connection: ConnectionParameters = fastLink,
                                  _ body: (ConnectedPair) async throws -> T) async throws -> T {
        try await SimulatedWorldFixture.with(description, hosts: ["central", "peripheral"]) { world, hosts in
            guard let target = await hosts[1].controllerInfo?.address else { throw TestFailure("peripheral not initialized") }
            let (c, p) = try await HostScenarios.connect(central: hosts[0], peripheral: hosts[1], target: target, connection: connection)
            return try await body(ConnectedPair(world: world, central: hosts[0], peripheral: hosts[1],
                                                centralHandle: c.handle, peripheralHandle: p.handle))
        }
    }
}
