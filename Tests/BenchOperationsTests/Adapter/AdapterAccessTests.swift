@testable import BenchOperations
import Foundation
@testable import HCIPackets
@testable import HCITransports
@testable import Rigs
import Testing
import TestSupport

/// One path to the central adapter for the suites and `hil recover`: which adapters can be USB-reset,
/// and a simulated adapter's reset giving a fresh controller that answers.
@Suite struct AdapterAccessTests {
    @Test func whichAdaptersCanBeUSBReset() throws {
        #expect(try AdapterAccess(moniker: "usb:0").canResetUSB)
        #expect(try AdapterAccess(moniker: "usb:2fe3:000b/ABC").canResetUSB)
        #expect(try !AdapterAccess(moniker: "unix:/tmp/bt-server-le").canResetUSB)
        #expect(try !AdapterAccess(moniker: "tcp-client:127.0.0.1:6402").canResetUSB)
        // An hci-socket adapter is reset through the USB device sysfs shows behind it; with no such
        // adapter (no AF_BLUETOOTH here, or no hci9) there is none.
        #expect(try !AdapterAccess(moniker: "hci-socket:9", sysfs: "/nonexistent").canResetUSB)
    }

    @Test func aNonUSBAdapterSaysWhyItCannotBeReset() async throws {
        let access = try AdapterAccess(moniker: "unix:/tmp/bt-server-le")
        do {
            _ = try await access.resetUSB()
            Issue.record("a unix: adapter was USB-reset")
        } catch let error as HCITransportError {
            #expect(error.description.contains("unix:/tmp/bt-server-le: not a USB adapter, so it cannot be USB-reset"))
        }
    }

    @Test func simMonikersNeedTheirBench() throws {
        #expect(throws: HCITransportError.self) { _ = try AdapterAccess(moniker: "sim:central") }
        #expect(throws: HCITransportError.self) { _ = try AdapterAccess(moniker: "bogus:1") }
    }

    /// On the simulated world's virtual time, driven: the hosts' command deadlines are the test's clock's.
    @Test func aSimulatedAdapterResetsAndAnswersAgain() async throws {
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path)
        let runtime = try SimulatedRigRuntime(rig: rig)
        let clock = runtime.world.air.clock
        #expect(clock.isVirtual)
        do {
            try await clock.drive { () async throws -> Void in
                try await runtime.powerOnAll()
                #expect(throws: HCITransportError.self) { _ = try AdapterAccess(moniker: "sim:nope", runtime: runtime) }
                let access = try AdapterAccess(moniker: "sim:central", runtime: runtime)
                #expect(access.canResetUSB)
                let before = try await access.openHost()
                _ = try await before.initialize()
                await before.close()
                #expect(try await access.resetUSB() == "USB reset of sim:central (simulated)")
                let after = try await access.openHost()
                let info = try await after.initialize()
                #expect(info.address == (try #require(BDAddress("00:48:49:4C:00:01"))))
                await after.close()
                // The ladder through the same access: a healthy adapter answers at the first rung.
                let slot = HostSlot(try await access.openHost())
                let outcome = await access.recoveryLadder(slot: slot, powerSwitch: runtime.adapterPowerSwitch()).climb()
                guard case .recovered(let rung, _) = outcome else { Issue.record("\(outcome)"); await slot.close(); return }
                #expect(rung == "HCI Reset")
                await slot.close()
            }
        } catch {
            await runtime.shutdown()
            throw error
        }
        await runtime.shutdown()
    }
}
