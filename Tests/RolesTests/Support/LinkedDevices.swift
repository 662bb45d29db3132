import HCIPackets
import EventLoops
import HostCore
import Roles
import Simulation
import TestSupport

/// A central and an accessory (our own `LEDevice`s) on a simulated world on virtual time, connected: the body
/// runs as a drive of the world's clock, so every deadline it meets is the spec's, to the nanosecond.
struct LinkedDevices {
    let world: SimulatedWorld
    let central: LEDevice
    let peripheral: LEDevice
    let centralLink: LEConnection
    let peripheralLink: LEConnection
    var clock: LoopClock { world.air.clock }

    /// Two controllers with 27-byte × 4 LE buffers (so K-frames fragment into several ACL packets).
    static func world(central: LEFeatures, peripheral: LEFeatures) -> SimulatedWorldDescription {
        var description = SimulatedWorldDescription(controllers: [
            .init(name: "central", address: BDAddress(0x00_5A_1D_00_00_01), leBufferLength: 27, leBufferCount: 4, leFeatures: central),
            .init(name: "peripheral", address: BDAddress(0x00_5A_1D_00_00_02), leBufferLength: 27, leBufferCount: 4, leFeatures: peripheral),
        ])
        description.timing.clock = .virtual
        return description
    }

    /// The simulated controllers' default LE features: LE Encryption and Peripheral-initiated Features Exchange.
    static let defaultFeatures: LEFeatures = [.leEncryption, .peripheralInitiatedFeaturesExchange]

    static func with(central: LEFeatures = defaultFeatures, peripheral: LEFeatures = defaultFeatures,
                     _ body: (LinkedDevices) async throws -> Void) async throws {
        let world = try SimulatedWorld(Self.world(central: central, peripheral: peripheral))
        do {
            try await world.air.clock.drive { () async throws -> Void in
                let peripheral = LEDevice(host: try HCIHost(transport: world.openTransport(named: "peripheral")))
                let central = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")))
                do {
                    let incoming = await peripheral.incomingConnections()
                    try await peripheral.startAdvertising(Advertisement(name: "HIL-CoC", interval: 32))
                    let link = try await central.connect(matching: ScanFilter(name: "HIL-CoC"), scanTimeout: .seconds(2), timeout: .seconds(2))
                    let peripheralLink = try await first(of: incoming, within: .seconds(1), clock: world.air.clock, "the accessory's connection")
                    try await body(LinkedDevices(world: world, central: central, peripheral: peripheral, centralLink: link, peripheralLink: peripheralLink))
                } catch {
                    await peripheral.close()
                    await central.close()
                    throw error
                }
                await peripheral.close()
                await central.close()
            }
        } catch {
            await world.shutdown()
            throw error
        }
        await world.shutdown()
    }

    /// The peripheral listens on `spsm` with `accepted`; the central opens a channel to it with `opened`;
    /// returns both ends (central's first).
    func openChannel(spsm: UInt16 = 0x0080, accepted: LECreditBasedChannelParameters, opened: LECreditBasedChannelParameters,
                     timeout: Duration = .seconds(2)) async throws -> (central: LECreditBasedChannel, peripheral: LECreditBasedChannel) {
        let incoming = try await peripheral.listen(spsm: spsm, mtu: accepted.mtu, mps: accepted.mps, credits: accepted.credits)
        let channel = try await centralLink.openChannel(spsm: spsm, mtu: opened.mtu, mps: opened.mps, credits: opened.credits, timeout: timeout)
        let accepting = try await first(of: incoming, within: .seconds(1), clock: clock, "the accepted channel")
        return (channel, accepting)
    }
}
