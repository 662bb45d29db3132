import HCITransports
import HostCore
import Simulation
import Testing

/// An adapter USB reset: the transport closes, the links are lost, and the controller is back fresh.
@Suite struct USBResetTests {
    @Test func usbResetClosesTheTransportAndTheControllerComesBackFresh() async throws {
        try await ConnectedPair.with { pair in
            let clock = pair.world.air.clock
            let lost = try await HostScenarios.expectDisconnection(pair.peripheral, handle: pair.peripheralHandle, "the peripheral")
            let start = clock.now
            try await pair.world.usbReset(named: "central")
            // Back after exactly the timing's USB reset delay (50 ms by default) of the world's clock.
            #expect(start.duration(to: clock.now) == .milliseconds(50), "back after \(start.duration(to: clock.now))")
            #expect(await pair.central.state == .poweredOff)
            #expect(await pair.central.closedReason?.message.contains("USB reset") == true)
            #expect(try await pair.peripheral.wait(for: lost) == .connectionTimeout)
            let host = try HCIHost(transport: pair.world.openTransport(named: "central"))
            try await host.initialize()
            #expect(await host.connections.isEmpty)
            #expect(await host.state == .poweredOn)
            await host.close()
        }
    }

    @Test func usbResetOfAnUnknownOrSwitchedOffControllerIsNotFound() async throws {
        try await SimulatedWorldFixture.drive { world in
            for name in ["nobody", "peripheral"] {
                if name == "peripheral" { await world.powerSwitch?.setPort(1, on: false) }
                do throws(HCITransportError) {
                    try await world.usbReset(named: name)
                    Issue.record("reset \(name)")
                } catch {
                    #expect(error.kind == .notFound)
                }
            }
        }
    }
}
