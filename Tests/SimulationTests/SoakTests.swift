import HCIPackets
import Simulation
import Synchronization
import Testing

/// Many connect / ACL / disconnect cycles leave nothing behind: no links, handles, timers or buffers.
@Suite struct SoakTests {
    static let fast: SimulatedWorldDescription = {
        var description = SimulatedWorldFixture.twoControllers
        description.timing = SimulationTiming(timeScale: 0.02, seed: 42, clock: .virtual)
        return description
    }()

    @Test func cyclesLeaveNothingBehind() async throws {
        try await SimulatedWorldFixture.with(Self.fast, hosts: ["central", "peripheral"]) { world, hosts in
            let (central, peripheral) = (hosts[0], hosts[1])
            let target = try #require(await peripheral.controllerInfo?.address)
            try await peripheral.send(LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20))
            let cycles = 200
            for cycle in 0..<cycles {
                let onCentral = try await HostScenarios.expectConnectionComplete(central, "the central")
                let onPeripheral = try await HostScenarios.expectConnectionComplete(peripheral, "the peripheral")
                try await peripheral.send(LESetAdvertisingEnable(true))
                try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public,
                                                          connection: ConnectedPair.fastLink))
                let c = try await central.wait(for: onCentral).handle
                let p = try await peripheral.wait(for: onPeripheral).handle
                let arrived = try await peripheral.expect("the PDU", timeout: .seconds(2)) { event -> Int? in
                    if case .aclPDU(p, let data) = event { return data.count }
                    return nil
                }
                try await central.sendACL(handle: c, pdu: HostScenarios.pdu(60, seed: UInt8(truncatingIfNeeded: cycle)))
                #expect(try await peripheral.wait(for: arrived) == 64)
                let (local, handle, remote, remoteHandle) = cycle.isMultiple(of: 2) ? (central, c, peripheral, p) : (peripheral, p, central, c)
                let atRemote = try await HostScenarios.expectDisconnection(remote, handle: remoteHandle, "the peer")
                #expect(try await local.disconnect(handle: handle) == .connectionTerminatedByLocalHost)
                #expect(try await remote.wait(for: atRemote) == .remoteUserTerminatedConnection)
            }
            let stats = await world.air.statistics()
            #expect(stats.links == 0 && stats.handles == 0 && stats.armedTimers == 0 && stats.aclBuffersInUse == 0)
            #expect(stats.advertisers == 0 && stats.initiators == 0)
            #expect(await central.connections.isEmpty)
            #expect(await peripheral.connections.isEmpty)
        }
    }
}
