import Foundation
import EventLoops
import HostCore
import GATT
import SMP
import Roles
import Simulation
import Testing
import TestSupport

/// A pairing whose bond the bond store cannot write fails with the store's error, on either side: the keys
/// were exchanged, but this side would not have them at the next connection, so nothing may say "stored".
/// Two of our `LEDevice`s on a simulated world on virtual time; the full disk is the store's file-system
/// seam failing the temporary file's write with ENOSPC.
@Suite struct UnkeptBondTests {
    /// A central and an accessory serving HIL Protected Data on a virtual-time world, each pairing Just Works.
    static func withDevices(central centralBonds: @escaping @Sendable (LoopClock) async throws -> (any BondStorage, LocalIdentity),
                            accessory accessoryBonds: @escaping @Sendable (LoopClock) async throws -> (any BondStorage, LocalIdentity),
                            _ body: (LEDevice, LEDevice, LoopClock) async throws -> Void) async throws {
        let world = try SimulatedWorld(SimulatedWorldFixture.onVirtualTime())
        let clock = world.air.clock
        do {
            try await clock.drive { () async throws -> Void in
                let database = try GATTDatabase(services: [.gap(name: "HIL-Secure"), .gatt(),
                                                           .protectedData(value: Array("secret-42".utf8), level: .encryption)])
                let accessory = LEDevice(host: try HCIHost(transport: world.openTransport(named: "peripheral")), database: database)
                let central = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")))
                let (accessoryStore, accessoryIdentity) = try await accessoryBonds(clock)
                let (centralStore, centralIdentity) = try await centralBonds(clock)
                await accessory.configureSecurity(pairing: PairingOptions(ioCapability: .noInputNoOutput), bonds: accessoryStore,
                                                  identity: accessoryIdentity)
                await central.configureSecurity(pairing: PairingOptions(), bonds: centralStore, identity: centralIdentity)
                do {
                    try await body(central, accessory, clock)
                } catch {
                    await accessory.close(); await central.close()
                    throw error
                }
                await accessory.close(); await central.close()
            }
        } catch {
            await world.shutdown()
            throw error
        }
        await world.shutdown()
    }

    /// Connects the central to the advertising accessory: the central's link and the accessory's.
    static func connect(_ central: LEDevice, _ accessory: LEDevice, clock: LoopClock) async throws -> (LEConnection, LEConnection) {
        let incoming = await accessory.incomingConnections()
        try await accessory.startAdvertising(Advertisement(name: "HIL-Secure", interval: 32))
        let link = try await central.connect(matching: ScanFilter(name: "HIL-Secure"), scanTimeout: .seconds(2), timeout: .seconds(2))
        let peripheral = try await first(of: incoming, within: .seconds(1), clock: clock, "the accessory's connection")
        return (link, peripheral)
    }

    /// A bond file in a fresh directory whose file system can be told to fail, on `clock`.
    final class FailingStore: Sendable {
        let directory: URL
        let files = ScriptedFileSystem()

        init() throws { directory = try TemporaryDirectory.make("unkept-bonds") }
        deinit { TemporaryDirectory.remove(directory) }

        /// The adapter's file, made while the disk works; every later write of it then fails with ENOSPC.
        func open(_ adapter: String, clock: LoopClock) async throws -> (AdapterBondFile, LocalIdentity) {
            let file = try await AdapterBondFile(directory: directory.path, adapter: adapter,
                                                 options: BondStoreOptions(clock: clock, fileSystem: files))
            files.fail(.write, on: ".tmp", errno: ENOSPC)
            return (file, await file.identity)
        }

        var path: String { directory.appendingPathComponent(AdapterBondFile.fileName(for: "sim:central")).path }
    }

    @Test func aBondTheCentralCannotStoreFailsItsPairingWithTheStoresError() async throws {
        let store = try FailingStore()
        try await Self.withDevices(central: { clock in try await store.open("sim:central", clock: clock) },
                                   accessory: { _ in (InMemoryBondStore(), try LocalIdentity.randomStatic()) }) { central, accessory, clock in
            let (link, _) = try await Self.connect(central, accessory, clock: clock)
            do throws(SecurityError) {
                let result = try await link.pair(PairingOptions())
                Issue.record("the pairing succeeded although its bond was not stored: \(result.bond.peerAddress)")
            } catch {
                guard case .bondStore(let failure) = error else { throw error }
                #expect(failure.kind == .writeFailed)
                #expect(error.description == "bond store: cannot write \(store.path).tmp: No space left on device")
            }
            #expect(try await AdapterBondFile(opening: store.path).bonds().isEmpty)
            #expect(await link.lastPairing == nil, "a failed pairing is not the link's last pairing")
            _ = try await link.disconnect()
        }
    }

    @Test func aBondTheAccessoryCannotStoreIsAPairingFailureItsObserversHear() async throws {
        let store = try FailingStore()
        let centralBonds = InMemoryBondStore()
        try await Self.withDevices(central: { _ in (centralBonds, try LocalIdentity.randomStatic()) },
                                   accessory: { clock in try await store.open("sim:central", clock: clock) }) { central, accessory, clock in
            let events = await accessory.pairingEvents()
            let (link, peripheral) = try await Self.connect(central, accessory, clock: clock)
            let paired = try await link.pair(PairingOptions())
            #expect(paired.bonded, "the central stored its side")
            let event = try await first(of: events, within: .seconds(5), clock: clock, "the accessory's pairing event")
            guard case .failed(let error, let peer) = event else {
                Issue.record("the accessory reported \(event), not the failure to store the bond")
                return
            }
            #expect(peer == peripheral.peerAddress)
            #expect(error.description == "bond store: cannot write \(store.path).tmp: No space left on device")
            #expect(try await AdapterBondFile(opening: store.path).bonds().isEmpty)
            _ = try await link.disconnect()
        }
    }
}
