@testable import DeviceControl
import Foundation
@testable import HCIPackets
@testable import HostCore
@testable import Roles
@testable import Rigs
import Testing

/// The simulated bench of the shipped rigs: accessories boot, power switches cut them off the air (the
/// central sees 0x08 after the supervision timeout), and each injectable fault does what it says.
///
/// A rig's simulated bench runs on virtual time: each test is a drive of the bench's clock (the air, the
/// accessories' firmware and the central's host all run on the world's loop), and measures on that clock.
@Suite struct SimulatedRigRuntimeTests {
    /// Runs `body` on the bench of `rigFile` with its accessories powered on and a started central on
    /// `sim:central`, as a drive of the bench's clock; closes the central and shuts the bench down after.
    static func session(_ rigFile: String, _ body: (SimulatedRigRuntime, LEDevice, Rig) async throws -> Void) async throws {
        try await session(rig: try Rig.load(path: RigTests.root.appendingPathComponent(rigFile).path), body)
    }

    /// Runs `body` on the bench of `rig`, as `session(_:_:)` does.
    static func session(rig: Rig, _ body: (SimulatedRigRuntime, LEDevice, Rig) async throws -> Void) async throws {
        let runtime = try SimulatedRigRuntime(rig: rig)
        #expect(runtime.world.air.clock.isVirtual, "a rig's simulated bench runs on virtual time")
        do {
            try await runtime.world.air.clock.drive { () async throws -> Void in
                try await runtime.powerOnAll()
                let host = try HCIHost(transport: try runtime.openTransport(named: "central"))
                let central = LEDevice(host: host)
                do {
                    try await central.start()
                    try await body(runtime, central, rig)
                } catch {
                    await central.close()
                    throw error
                }
                await central.close()
            }
        } catch {
            await runtime.shutdown()
            throw error
        }
        await runtime.shutdown()
    }

    /// The central last hears the thermometer at the connection event that brings the last answer of its
    /// discovery; cut off then, the link is lost exactly one supervision timeout later (Core v5.4 Vol 6
    /// Part B §4.5.2). The rig's 300 ms supervision timeout is 40 of its 7.5 ms intervals, so it ends at an event.
    @Test func healthyBenchPowerOffWhileConnectedIsAConnectionTimeout() async throws {
        try await Self.session("rigs/simulated.json") { runtime, central, rig in
            let clock = runtime.world.air.clock
            let thermometer = try #require(rig.accessory(named: "thermometer"))
            let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
            #expect(Int(await link.supervisionTimeout) * 10 == Int(rig.budgets.supervisionTimeout / .milliseconds(1)))
            let tree = try await link.gatt.discoverAll()
            for uuid in thermometer.expectedServices { #expect(tree.services.contains { $0.uuid == uuid }) }
            let powerSwitch = try #require(runtime.powerSwitch(for: "thermometer"))
            let cut = clock.now // the central last heard the thermometer at this connection event
            let off = try await powerSwitch.off()
            #expect(off.verification.isVerified)
            let reason = try await link.waitForDisconnection(timeout: rig.budgets.supervisionTimeout + rig.budgets.linkLossMargin)
            #expect(reason == .connectionTimeout)
            #expect(cut.duration(to: clock.now) == rig.budgets.supervisionTimeout, "0x08 after \(cut.duration(to: clock.now))")
            #expect(await central.host.state == .poweredOn)
            #expect(await central.host.connections.isEmpty)
            // Power back on: it advertises again within budget.
            _ = try await powerSwitch.on()
            let again = try await central.find(thermometer.match, timeout: rig.budgets.advertisingAfterPowerOn)
            #expect(again.isConnectable)
        }
    }

    @Test func fadingAccessoryStopsAdvertisingAfterAPowerCycle() async throws {
        try await Self.session("rigs/checks/simulated-faults.json") { runtime, central, rig in
            let fading = try #require(rig.accessory(named: "fading"))
            _ = try await central.find(fading.match, timeout: .seconds(1))
            let powerSwitch = try #require(runtime.powerSwitch(for: "fading"))
            _ = try await powerSwitch.cycle(offTime: .milliseconds(50))
            await #expect { try await central.find(fading.match, timeout: rig.budgets.advertisingAfterPowerOn) } throws: { error in
                guard let error = error as? RoleError, case .notFound = error else { return false }
                return true
            }
        }
    }

    /// The dropper ends each link 150 ms after it accepted it (at CONNECT_IND): its LL_TERMINATE_IND rides the
    /// first connection event at or after that, and the events are transmitWindowDelay (1.25 ms, Core v5.4 Vol 6
    /// Part B §4.5.3) plus whole 7.5 ms intervals after CONNECT_IND: 20 intervals, so the central hears 0x13 at
    /// 151.25 ms.
    @Test func dropperDropsTheLink() async throws {
        try await Self.session("rigs/checks/simulated-faults.json") { runtime, central, rig in
            let clock = runtime.world.air.clock
            let dropper = try #require(rig.accessory(named: "dropper"))
            let link = try await central.connect(matching: dropper.match, scanTimeout: .seconds(1), parameters: rig.connectionParameters)
            let connected = clock.now
            let interval = Duration.microseconds(1250 * Int(await link.interval))
            let firstEvent = Duration.microseconds(1250)
            #expect(try await link.waitForDisconnection(timeout: .seconds(2)) == .remoteUserTerminatedConnection)
            let expected = firstEvent + interval * Int(((Duration.milliseconds(150) - firstEvent) / interval).rounded(.up))
            #expect(connected.duration(to: clock.now) == expected, "0x13 after \(connected.duration(to: clock.now))")
        }
    }

    @Test func stubbornAccessoryNeverAcceptsAConnection() async throws {
        try await Self.session("rigs/checks/simulated-faults.json") { _, central, rig in
            let stubborn = try #require(rig.accessory(named: "stubborn"))
            await #expect { try await central.connect(matching: stubborn.match, scanTimeout: .seconds(1), timeout: .milliseconds(400)) } throws: { error in
                guard let error = error as? RoleError, case .connectTimeout = error else { return false }
                return true
            }
        }
    }

    /// The sluggish accessory holds each ATT answer 250 ms. The central asks at the instant of the connection
    /// (CONNECT_IND); the request rides the link's first event, transmitWindowDelay (1.25 ms, Core v5.4 Vol 6
    /// Part B §4.5.3) later, and reaches the accessory after its air time on LE 1M: Exchange MTU Request (3
    /// octets) in L2CAP (4), (1 + 4 + 2 + 7 + 3) × 8 = 136 µs (§2.1). The answer, held 250 ms from then, rides the
    /// first event at or after that, a whole number of the rig's 7.5 ms intervals on: 34 of them (255 ms),
    /// behind the central's empty PDU (80 µs) and T_IFS (150 µs), and lasts 136 µs itself.
    @Test func sluggishAccessoryAnswersATTLate() async throws {
        try await Self.session("rigs/checks/simulated-faults.json") { runtime, central, rig in
            let clock = runtime.world.air.clock
            let sluggish = try #require(rig.accessory(named: "sluggish"))
            let link = try await central.connect(matching: sluggish.match, scanTimeout: .seconds(1), parameters: rig.connectionParameters)
            let interval = Duration.microseconds(1250 * Int(await link.interval))
            #expect(interval == .microseconds(7500))
            let held = Duration.milliseconds(250)
            let start = clock.now
            _ = try await link.gatt.exchangeMTU()
            let took = start.duration(to: clock.now)
            let pdu = Duration.microseconds(136)
            #expect(took == .microseconds(1250) + interval * Int(((held + pdu) / interval).rounded(.up)) + .microseconds(80 + 150) + pdu,
                    "the answer came after \(took)")
            try await link.disconnect()
        }
    }

    @Test func fragileAccessoryRebootsOnAWrite() async throws {
        try await Self.session("rigs/checks/simulated-faults.json") { runtime, central, rig in
            let fragile = try #require(rig.accessory(named: "fragile"))
            let link = try await central.connect(matching: fragile.match, scanTimeout: .seconds(1), parameters: rig.connectionParameters)
            let tree = try await link.gatt.discoverAll()
            let battery = try #require(tree.characteristics.first { $0.uuid == BluetoothUUID(UInt16(0x2A19)) })
            // The discovery's last answer came in an exchange of a connection event; the subscription's write
            // rides the event's next exchange (the central has more data, Core v5.4 Vol 6 Part B §4.5.6), T_IFS
            // (150 µs) after that answer ended, and reaches the accessory after its air time on LE 1M: Write
            // Request (5 octets) in L2CAP (4), (1 + 4 + 2 + 9 + 3) × 8 = 152 µs (§2.1). The accessory reboots on
            // it, and the central loses the link one supervision timeout later (§4.5.2).
            let clock = runtime.world.air.clock
            let start = clock.now
            _ = try? await link.gatt.subscribe(to: battery)
            let reason = try await link.waitForDisconnection(timeout: rig.budgets.supervisionTimeout + rig.budgets.linkLossMargin)
            #expect(start.duration(to: clock.now) == .microseconds(150 + 152) + rig.budgets.supervisionTimeout, "0x08 after \(start.duration(to: clock.now))")
            #expect(reason == .connectionTimeout)
            #expect(await runtime.accessories["fragile"]?.bootCount == 2)
        }
    }
}
