@testable import DeviceControl
import Foundation
@testable import HCI
@testable import Rigs
import Testing

/// The simulated bench of the shipped rigs: accessories boot, power switches cut them off the air (the
/// central sees 0x08 after the supervision timeout), and each injectable fault does what it says.
@Suite struct SimulatedRigRuntimeTests {
    static func session(_ rigFile: String) async throws -> (SimulatedRigRuntime, LEDevice, Rig) {
        let rig = try Rig.load(path: RigTests.root.appendingPathComponent(rigFile).path)
        let runtime = try SimulatedRigRuntime(rig: rig)
        try await runtime.powerOnAll()
        let host = try HCIHost(transport: try runtime.openTransport(named: "central"))
        let central = LEDevice(host: host)
        try await central.start()
        return (runtime, central, rig)
    }

    static func close(_ runtime: SimulatedRigRuntime, _ central: LEDevice) async {
        await central.close()
        await runtime.shutdown()
    }

    @Test func healthyBenchPowerOffWhileConnectedIsAConnectionTimeout() async throws {
        let (runtime, central, rig) = try await Self.session("rigs/simulated.json")
        let thermometer = try #require(rig.accessory(named: "thermometer"))
        let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
        let tree = try await link.gatt.discoverAll()
        for uuid in thermometer.expectedServices { #expect(tree.services.contains { $0.uuid == uuid }) }
        let powerSwitch = try #require(runtime.powerSwitch(for: "thermometer"))
        let cut = ContinuousClock.now
        let off = try await powerSwitch.off()
        #expect(off.verification.isVerified)
        let reason = try await link.waitForDisconnection(timeout: rig.budgets.supervisionTimeout + rig.budgets.linkLossMargin)
        let elapsed = ContinuousClock.now - cut
        #expect(reason == .connectionTimeout)
        #expect(elapsed >= rig.budgets.supervisionTimeout)
        #expect(await central.host.state == .poweredOn)
        #expect(await central.host.connections.isEmpty)
        // Power back on: it advertises again within budget.
        _ = try await powerSwitch.on()
        let again = try await central.find(thermometer.match, timeout: rig.budgets.advertisingAfterPowerOn)
        #expect(again.isConnectable)
        await Self.close(runtime, central)
    }

    @Test func fadingAccessoryStopsAdvertisingAfterAPowerCycle() async throws {
        let (runtime, central, rig) = try await Self.session("rigs/simulated-faults.json")
        let fading = try #require(rig.accessory(named: "fading"))
        _ = try await central.find(fading.match, timeout: .seconds(1))
        let powerSwitch = try #require(runtime.powerSwitch(for: "fading"))
        _ = try await powerSwitch.cycle(offTime: .milliseconds(50))
        await #expect { try await central.find(fading.match, timeout: rig.budgets.advertisingAfterPowerOn) } throws: { error in
            guard let error = error as? RoleError, case .notFound = error else { return false }
            return true
        }
        await Self.close(runtime, central)
    }

    @Test func dropperDropsTheLink() async throws {
        let (runtime, central, rig) = try await Self.session("rigs/simulated-faults.json")
        let dropper = try #require(rig.accessory(named: "dropper"))
        let link = try await central.connect(matching: dropper.match, scanTimeout: .seconds(1), parameters: rig.connectionParameters)
        #expect(try await link.waitForDisconnection(timeout: .seconds(2)) == .remoteUserTerminatedConnection)
        await Self.close(runtime, central)
    }

    @Test func stubbornAccessoryNeverAcceptsAConnection() async throws {
        let (runtime, central, rig) = try await Self.session("rigs/simulated-faults.json")
        let stubborn = try #require(rig.accessory(named: "stubborn"))
        await #expect { try await central.connect(matching: stubborn.match, scanTimeout: .seconds(1), timeout: .milliseconds(400)) } throws: { error in
            guard let error = error as? RoleError, case .connectTimeout = error else { return false }
            return true
        }
        await Self.close(runtime, central)
    }

    @Test func sluggishAccessoryAnswersATTLate() async throws {
        let (runtime, central, rig) = try await Self.session("rigs/simulated-faults.json")
        let sluggish = try #require(rig.accessory(named: "sluggish"))
        let link = try await central.connect(matching: sluggish.match, scanTimeout: .seconds(1), parameters: rig.connectionParameters)
        let start = ContinuousClock.now
        _ = try await link.gatt.exchangeMTU()
        #expect(ContinuousClock.now - start >= .milliseconds(250))
        try await link.disconnect()
        await Self.close(runtime, central)
    }

    @Test func fragileAccessoryRebootsOnAWrite() async throws {
        let (runtime, central, rig) = try await Self.session("rigs/simulated-faults.json")
        let fragile = try #require(rig.accessory(named: "fragile"))
        let link = try await central.connect(matching: fragile.match, scanTimeout: .seconds(1), parameters: rig.connectionParameters)
        let tree = try await link.gatt.discoverAll()
        let battery = try #require(tree.characteristics.first { $0.uuid == BluetoothUUID(UInt16(0x2A19)) })
        _ = try? await link.gatt.subscribe(to: battery)
        let reason = try await link.waitForDisconnection(timeout: rig.budgets.supervisionTimeout + rig.budgets.linkLossMargin)
        #expect(reason == .connectionTimeout)
        #expect(await runtime.accessories["fragile"]?.bootCount == 2)
        await Self.close(runtime, central)
    }
}
