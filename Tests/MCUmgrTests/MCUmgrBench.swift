import Foundation
import EventLoops
import GATT
import HCIPackets
import HostCore
import MCUbootImage
import MCUmgr
import Roles
import Simulation
import TestSupport
import Testing
import Throughput

/// A central and a simulated MCUboot accessory serving MCUmgr SMP on a simulated world on virtual time: everything
/// runs on the world's loop, so a flash erase of 500 ms or a 3 s deadline is exact on `clock`.
struct MCUmgrBench {
    let central: LEDevice
    let accessory: LEDevice
    let slots: MCUbootSlots
    let clock: LoopClock

    static let name = "HIL-DFU"

    /// imgtool's images (Tests/MCUbootImageTests/Fixtures, scripts/peers/mcuboot-images).
    static func image(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures/\(name).bin")))
    }

    /// The public key of an imgtool key (`NAME.pub.pem` beside the images).
    static func key(_ name: String) throws -> MCUbootPublicKey {
        try MCUbootPublicKey(pem: String(contentsOf: repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures/\(name).pub.pem"),
                                         encoding: .utf8))
    }

    static let world = SimulatedWorldDescription(
        controllers: [.init(name: "central", address: BDAddress(0x00_5A_1D_00_00_01), leBufferLength: 251, leBufferCount: 8),
                      .init(name: "peripheral", address: BDAddress(0x00_5A_1D_00_00_02), leBufferLength: 251, leBufferCount: 8)],
        timing: SimulationTiming(clock: .virtual))

    /// Runs `body` with the bench; `serving` false leaves the SMP service without a server (a device that never
    /// answers); `signingKey` the key its MCUboot checks signatures with. The accessory runs unsigned.bin (1.2.3+4). Its reset stops advertising, ends its links, boots the
    /// slots (MCUboot's swap) and advertises again.
    static func with(timing: MCUbootSlots.Timing = MCUbootSlots.Timing(), serving: Bool = true, signingKey: MCUbootPublicKey? = nil,
                     faults: MCUbootSlots.Faults = MCUbootSlots.Faults(),
                     _ body: (MCUmgrBench) async throws -> Void) async throws {
        let world = try SimulatedWorld(world)
        let clock = world.air.clock
        do {
            try await clock.drive { () async throws -> Void in
                // Bumble's bench service beside SMP: a stream of writes on the same link is what the link carries.
                let database = try GATTDatabase(services: [.gap(name: name), .gatt(), MCUmgrService.definition(),
                                                           SpeedService.definition { _ in }])
                let accessory = LEDevice(host: try HCIHost(transport: world.openTransport(named: "peripheral")), database: database)
                let central = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")))
                let slots = MCUbootSlots(running: try MCUbootImage(try image("unsigned")), timing: timing, faults: faults, signingKey: signingKey,
                                         loop: accessory.host.loop)
                let server = try await MCUmgrServer(device: accessory, slots: slots)
                let bench = try await BenchServer(device: accessory)
                let counting = Task(executorPreference: accessory.host.loop) { await bench.run() }
                let running = Task(executorPreference: accessory.host.loop) {
                    guard serving else { return }
                    await server.run {
                        try? await accessory.stopAdvertising()
                        for link in await accessory.connections.values { _ = try? await link.disconnect() }
                        await slots.boot()
                        try? await accessory.startAdvertising(Advertisement(name: name, interval: 32))
                    }
                }
                try await accessory.startAdvertising(Advertisement(name: name, interval: 32))
                do {
                    try await body(MCUmgrBench(central: central, accessory: accessory, slots: slots, clock: clock))
                } catch {
                    running.cancel(); counting.cancel()
                    await accessory.close(); await central.close()
                    throw error
                }
                running.cancel(); counting.cancel()
                await accessory.close(); await central.close()
            }
        } catch {
            await world.shutdown()
            throw error
        }
        await world.shutdown()
    }

    /// Advertises again, as a device does after its link ended.
    func advertise() async throws {
        try await accessory.startAdvertising(Advertisement(name: Self.name, interval: 32))
    }

    /// Connects the central (ATT_MTU 247, data length 251) and opens a client on the link.
    func connect(timeout: Duration = .seconds(5)) async throws -> MCUmgrClient {
        let link = try await central.connect(matching: ScanFilter(name: Self.name), scanTimeout: .seconds(5), timeout: .seconds(2))
        _ = try await link.exchangeMTU(offering: 247)
        _ = try await link.setDataLength(octets: 251)
        return try await MCUmgrClient.connect(on: link, timeout: timeout)
    }
}
