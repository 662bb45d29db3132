import HCI
import Simulation
import Testing

/// An adapter USB reset: the transport closes, the links are lost, and the controller is back fresh.
@Suite struct USBResetTests {
    @Test func usbResetClosesTheTransportAndTheControllerComesBackFresh() async throws {
        try await ConnectedPair.with { pair in
            let lost = try await HostScenarios.expectDisconnection(pair.peripheral, handle: pair.peripheralHandle, "the peripheral")
            let start = ContinuousClock.now
            try await pair.world.usbReset(named: "central")
            #expect(start.duration(to: .now) >= .milliseconds(50)) // the default USB reset delay
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
        let world = try SimulatedWorld(SimulatedWorldFixture.twoControllers)
        for name in ["nobody", "peripheral"] {
            if name == "peripheral" { await world.powerSwitch?.setPort(1, on: false) }
            do throws(HCITransportError) {
                try await world.usbReset(named: name)
                Issue.record("reset \(name)")
            } catch {
                #expect(error.kind == .notFound)
            }
        }
        await world.shutdown()
    }
}
