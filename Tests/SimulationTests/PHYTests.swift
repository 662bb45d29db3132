import HCIPackets
import Simulation
import Testing

/// The PHY Update procedure as a controller runs it (Core v5.4 Vol 6 Part B §5.1.10; HCI Vol 4 Part E
/// §7.8.47–§7.8.49, §7.7.65.12).
@Suite struct PHYTests {
    /// The peripheral's controller supports LE 1M alone (it reports neither LE 2M PHY nor LE Coded PHY).
    static let world: SimulatedWorldDescription = {
        var world = SimulatedWorldDescription.standard
        world.controllers[1].phys = [.le1M]
        return world
    }()

    /// A peer without LE 2M keeps the link on LE 1M: the initiator still hears LE PHY Update Complete (with the
    /// PHYs in use), the peer nothing, since nothing changed.
    @Test func aPeerWithout2MKeeps1MAndTheInitiatorStillHearsTheUpdate() async throws {
        try await ConnectedPair.with(Self.world) { pair in
            let features = try await pair.central.expect("LE Read Remote Features Complete", timeout: .seconds(1)) { event -> LEFeatures? in
                if case .hci(.le(.readRemoteFeaturesComplete(.success, pair.centralHandle, let features))) = event { return features }
                return nil
            }
            try await pair.central.send(LEReadRemoteFeatures(handle: pair.centralHandle))
            let remote = try await pair.central.wait(for: features)
            #expect(!remote.contains(.le2MPHY) && !remote.contains(.leCodedPHY) && remote.contains(.leDataPacketLengthExtension))
            let atCentral = try await pair.central.expect("LE PHY Update Complete", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .hci(.le(.phyUpdateComplete(.success, pair.centralHandle, let tx, let rx))) = event { return [tx, rx] }
                return nil
            }
            let atPeripheral = try await pair.peripheral.expect("LE PHY Update Complete", timeout: ConnectedPair.interval * 5) { event -> Bool? in
                if case .hci(.le(.phyUpdateComplete)) = event { return true }
                return nil
            }
            try await pair.central.send(LESetPHY(handle: pair.centralHandle, transmitPHYs: 0x02, receivePHYs: 0x02))
            #expect(try await pair.central.wait(for: atCentral) == [1, 1])
            #expect(try await HostScenarios.valueOrTimeout(atPeripheral, on: pair.peripheral) == nil)
        }
    }

    /// Each direction takes the fastest PHY both sides accept: the peripheral's host prefers LE Coded for
    /// receiving (LE Set Default PHY), so the central asking for anything sends on LE Coded and receives on 2M.
    /// A host asking its controller for a PHY it lacks is refused (0x11).
    @Test func theFastestPHYBothAcceptIsChosenPerDirection() async throws {
        try await ConnectedPair.with(.standard) { pair in
            // LE Set Default PHY: All_PHYs 0, TX_PHYS 1M or 2M, RX_PHYS Coded.
            let preferences = HCICommandPacket(opcode: .leSetDefaultPHY, parameters: [0x00, 0x03, 0x04])
            #expect(try await HostScenarios.status(ofRaw: preferences, on: pair.peripheral) == .success)
            let atCentral = try await pair.central.expect("LE PHY Update Complete", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .hci(.le(.phyUpdateComplete(.success, pair.centralHandle, let tx, let rx))) = event { return [tx, rx] }
                return nil
            }
            let atPeripheral = try await pair.peripheral.expect("LE PHY Update Complete", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .hci(.le(.phyUpdateComplete(.success, pair.peripheralHandle, let tx, let rx))) = event { return [tx, rx] }
                return nil
            }
            try await pair.central.send(LESetPHY(handle: pair.centralHandle, transmitPHYs: 0x07, receivePHYs: 0x07, options: 1))
            #expect(try await pair.central.wait(for: atCentral) == [3, 2])
            #expect(try await pair.peripheral.wait(for: atPeripheral) == [2, 3])
            // LE Read PHY: …, TX_PHY, RX_PHY.
            let read = try await pair.central.sendRaw(HCICommandPacket(opcode: .leReadPHY, parameters: [UInt8(pair.centralHandle & 0xFF), UInt8(pair.centralHandle >> 8)]))
            #expect(read.suffix(2) == [3, 2])
        }
        try await ConnectedPair.with(Self.world) { pair in
            let status = try await HostScenarios.status(ofRaw: LESetPHY(handle: pair.peripheralHandle, transmitPHYs: 0x02, receivePHYs: 0x01).packet,
                                                        completion: .status, on: pair.peripheral)
            #expect(status == .unsupportedFeatureOrParameterValue)
        }
    }
}
