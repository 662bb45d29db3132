import HCIPackets
import TestSupport
import HostCore
import HCITransports
import Simulation

/// A world on virtual time with an initialized central and peripheral already connected; the body runs at the
/// instant of the connection (CONNECT_IND), as a drive of the world's clock (`SimulatedWorldFixture`).
struct ConnectedPair {
    let world: SimulatedWorld
    let central: HCIHost
    let peripheral: HCIHost
    let centralHandle: UInt16
    let peripheralHandle: UInt16
    /// With `recording`, each host's transport, keeping the ACL packets its controller delivered.
    var recorders: (central: RecordingTransport, peripheral: RecordingTransport)?

    /// 30 ms interval, 200 ms supervision timeout: short, in realistic ratio.
    static let fastLink = ConnectionParameters(intervalMin: 0x0018, intervalMax: 0x0018, latency: 0, supervisionTimeout: 0x0014)
    /// `fastLink`'s connection interval (0x0018 × 1.25 ms).
    static let interval = Duration.milliseconds(30)

    /// Makes one side hear the other at a connection event: a PDU from `from` ("central" or "peripheral")
    /// crosses the link, and the caller is at the instant it arrived when this returns (on virtual time nothing
    /// moves the clock while the hosts handle the PDU). Returns the anchor of that event: the PDU (10 octets of
    /// payload behind a 4-octet L2CAP header) arrived its air time on LE 1M after it, behind the central's empty
    /// PDU and T_IFS when the peripheral sent it (Core v5.4 Vol 6 Part B §2.1, §4.5.1). Where a test needs to
    /// start at a connection event.
    @discardableResult
    func hear(from: String) async throws -> ContinuousClock.Instant {
        let (sender, receiver) = from == "central" ? (central, peripheral) : (peripheral, central)
        let (sendHandle, receiveHandle) = from == "central" ? (centralHandle, peripheralHandle) : (peripheralHandle, centralHandle)
        let arrived = try await receiver.expect("a PDU from the \(from)", timeout: .seconds(1)) { event -> Bool? in
            if case .aclPDU(receiveHandle, _) = event { return true }
            return nil
        }
        try await sender.sendACL(handle: sendHandle, pdu: HostScenarios.pdu(10))
        _ = try await receiver.wait(for: arrived)
        // (1 + 4 + 2 + 14 + 3) × 8 µs = 192 µs; the empty PDU (1 + 4 + 2 + 3) × 8 µs = 80 µs, then T_IFS 150 µs.
        let air = Duration.microseconds(from == "central" ? 192 : 80 + 150 + 192)
        return world.air.clock.now.advanced(by: .zero - air)
    }

    static func with<T: Sendable>(_ description: SimulatedWorldDescription = SimulatedWorldFixture.twoControllers,
                                  connection: ConnectionParameters = fastLink, recording: Bool = false,
                                  _ body: (ConnectedPair) async throws -> T) async throws -> T {
        try await SimulatedWorldFixture.drive(description) { world in
            var recorders: [RecordingTransport] = []
            let names = ["central", "peripheral"]
            return try await withInitializedHosts(2, peer: "simulated world", open: { index -> any HCITransport in
                let transport = try world.openTransport(named: names[index])
                guard recording else { return transport }
                let recorder = RecordingTransport(transport)
                recorders.append(recorder)
                return recorder
            }) { hosts in
                guard let target = await hosts[1].controllerInfo?.address else { throw TestFailure("peripheral not initialized") }
                let (c, p) = try await HostScenarios.connect(central: hosts[0], peripheral: hosts[1], target: target, connection: connection)
                return try await body(ConnectedPair(world: world, central: hosts[0], peripheral: hosts[1],
                                                    centralHandle: c.handle, peripheralHandle: p.handle,
                                                    recorders: recording ? (recorders[0], recorders[1]) : nil))
            }
        }
    }
}
