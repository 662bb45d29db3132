import HCIPackets
import HostCore
import Simulation
import Testing

/// A host initializes a simulated controller as it would a dongle, and reads back what the world configured.
@Suite struct ControllerIdentityTests {
    @Test func initializeReportsTheConfiguredIdentity() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { world, hosts in
            let host = hosts[0]
            #expect(await host.state == .poweredOn)
            let info = try #require(await host.controllerInfo)
            #expect(info.address == BDAddress(0x00_5A_1D_00_00_01))
            #expect(info.manufacturer.rawValue == 0x05F1)
            #expect(info.hciVersion.rawValue == 0x0D)
            #expect(info.supportsLE)
            #expect(!info.supportsExtendedAdvertising)
            #expect(info.leACLBufferLength == 27 && info.leACLBufferCount == 4)
            let buffers = await host.aclBuffers
            #expect(buffers.length == 27 && buffers.count == 4)
            #expect(info.leFeatures == SimulatedWorldDescription.Controller.defaultLEFeatures.union([.leDataPacketLengthExtension, .le2MPHY, .leCodedPHY]))
            #expect(world.controller(named: "central")?.moniker == "sim:central")
        }
    }

    @Test func customIdentity() async throws {
        let description = SimulatedWorldDescription(controllers: [
            .init(name: "dongle", address: BDAddress(0x11_22_33_44_55_66), manufacturer: CompanyIdentifier(0x0059),
                  hciVersion: BluetoothVersion(0x0B), hciSubversion: 0x1234, lmpVersion: BluetoothVersion(0x0B), lmpSubversion: 0x5678,
                  leBufferLength: 251, leBufferCount: 8),
        ])
        try await SimulatedWorldFixture.with(description, hosts: ["dongle"]) { _, hosts in
            let info = try #require(await hosts[0].controllerInfo)
            #expect(info.address.description == "11:22:33:44:55:66")
            #expect(info.manufacturer.rawValue == 0x0059)
            #expect(info.hciVersion.name == "5.2" && info.hciSubversion == 0x1234 && info.lmpSubversion == 0x5678)
            #expect(info.leACLBufferLength == 251 && info.leACLBufferCount == 8)
        }
    }

    @Test func resetGoesThroughResettingToPoweredOn() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let host = hosts[0]
            let events = await host.events()
            try await host.initialize()
            var states: [AdapterState] = []
            for await event in events {
                if case .stateChanged(let state) = event { states.append(state) }
                if states.last == .poweredOn { break }
            }
            #expect(states == [.resetting, .poweredOn])
        }
    }

    /// A controller with only a static random address: BD_ADDR is zero, and it advertises with the random one.
    @Test func randomIdentityAdvertisesWithItsStaticAddress() async throws {
        let accessory = try #require(BDAddress("C0:11:22:33:44:55"))
        let description = SimulatedWorldDescription(controllers: [
            .init(name: "central", address: BDAddress(0x00_5A_1D_00_00_01)),
            .init(name: "accessory", address: accessory, addressType: .random),
        ])
        try await SimulatedWorldFixture.with(description, hosts: ["central", "accessory"]) { _, hosts in
            #expect(await hosts[1].controllerInfo?.address == .zero)
            let (central, _) = try await HostScenarios.connect(central: hosts[0], peripheral: hosts[1], target: accessory, targetType: .random)
            #expect(central.peerAddress == accessory && central.peerAddressType == .random)
        }
    }
}
