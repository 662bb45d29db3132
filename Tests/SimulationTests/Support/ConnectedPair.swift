import HCIPackets
import TestSupport
import HostCore
import Simulation

/// A world on virtual time with an initialized central and peripheral already connected; the body runs at the
/// instant of the connection (CONNECT_IND), as a drive of the world's clock (`SimulatedWorldFixture`).
struct ConnectedPair {
    let world: SimulatedWorld
    let central: HCIHost
    let peripheral: HCIHost
    let centralHandle: UInt16
    let peripheralHandle: UInt16

    /// 30 ms interval, 200 ms supervision timeout: short, in realistic ratio.
    static let fastLink = ConnectionParameters(intervalMin: 0x0018, intervalMax: 0x0018, latency: 0, supervisionTimeout: 0x0014)
    /// `fastLink`'s connection interval (0x0018 × 1.25 ms).
    static let interval = Duration.milliseconds(30)

    /// Makes one side hear the other at a connection event: a PDU from `from` ("central" or "peripheral")
    /// crosses the link, and the caller is at that event's instant when this returns (on virtual time nothing
    /// moves the clock while the hosts handle the PDU). Where a test needs to start at a connection event.
    func hear(from: String) async throws {
        let (sender, receiver) = from == "central" ? (central, peripheral) : (peripheral, central)
        let (sendHandle, receiveHandle) = from == "central" ? (centralHandle, peripheralHandle) : (peripheralHandle, centralHandle)
        let arrived = try await receiver.expect("a PDU from the \(from)", timeout: .seconds(1)) { event -> Bool? in
            if case .aclPDU(receiveHandle, _) = event { return true }
            return nil
        }
        try await sender.sendACL(handle: sendHandle, pdu: HostScenarios.pdu(10))
        _ = try await receiver.wait(for: arrived)
    }

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
