import HCIPackets
import HCITransports
import Simulation
import Testing

/// `sim:NAME` transports: opened by name or moniker, one host at a time, closed either way.
@Suite struct TransportTests {
    @Test func openingByNameAndMoniker() async throws {
        try await SimulatedWorldFixture.drive(.standard) { world in
            #expect(world.controllerNames == ["central", "peripheral"])
            let transport = try world.openTransport(moniker: "sim:central")
            #expect(transport.moniker == "sim:central")
            // One host at a time, as with a USB dongle.
            do throws(HCITransportError) {
                _ = try world.openTransport(named: "central")
                Issue.record("opened twice")
            } catch {
                #expect(error.kind == .io)
            }
            transport.close()
            let again = try world.openTransport(named: "central")
            again.close()
            for (moniker, kind) in [("sim:nobody", HCITransportError.Kind.notFound), ("usb:0", .invalidMoniker), ("sim:", .invalidMoniker)] {
                do throws(HCITransportError) {
                    _ = try world.openTransport(moniker: moniker)
                    Issue.record("opened \(moniker)")
                } catch {
                    #expect(error.kind == kind, "\(moniker): \(error)")
                }
            }
        }
    }

    @Test func aHostClosingItsTransportLeavesTheControllerOnTheAir() async throws {
        try await ConnectedPair.with { pair in
            await pair.peripheral.close()
            #expect(pair.world.controller(named: "peripheral")?.isOpen == false)
            // The link lives on: the central can still disconnect it, and the peer's controller acknowledges.
            let reason = try await pair.central.disconnect(handle: pair.centralHandle)
            #expect(reason == .connectionTerminatedByLocalHost)
        }
    }

    @Test func sendingOnAClosedTransportThrows() async throws {
        try await SimulatedWorldFixture.drive(.standard) { world in
            let transport = try world.openTransport(named: "peripheral")
            await world.controller(named: "peripheral")?.powerOff()
            do throws(HCITransportError) {
                try transport.send(.command(ReadBDADDR().packet))
                Issue.record("sent on a powered-off controller's transport")
            } catch {
                #expect(error.kind == .closedByPeer)
            }
        }
    }
}
