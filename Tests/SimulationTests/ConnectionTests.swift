import HCIPackets
import Simulation
import Synchronization
import Testing

/// Connections: both sides' LE Connection Complete, disconnects with the spec's reasons, and the
/// procedures that ride connection events.
@Suite struct ConnectionTests {
    @Test func connectionCompleteOnBothSidesWithRolesAndParameters() async throws {
        try await ConnectedPair.with { pair in
            let central = try #require(await pair.central.connections[pair.centralHandle])
            let peripheral = try #require(await pair.peripheral.connections[pair.peripheralHandle])
            #expect(central.role == .central && peripheral.role == .peripheral)
            #expect(central.peerAddress == BDAddress(0x00_5A_1D_00_00_02))
            #expect(peripheral.peerAddress == BDAddress(0x00_5A_1D_00_00_01))
            #expect(central.interval == 0x0018 && central.supervisionTimeout == 0x0014)
            #expect(peripheral.interval == 0x0018 && peripheral.supervisionTimeout == 0x0014)
        }
    }

    /// The peer hears LL_TERMINATE_IND (the sent reason) one event before the initiator's acknowledgement
    /// completes it (0x16): on the world's clock, exactly one connection interval apart (Core v5.4 Vol 6 Part B
    /// §5.1.6: the initiator ends the link once the peer has acknowledged LL_TERMINATE_IND, at the next event).
    @Test(arguments: ["central", "peripheral"])
    func disconnectGives0x16LocallyAnd0x13AtThePeer(initiator: String) async throws {
        try await ConnectedPair.with { pair in
            let clock = pair.world.air.clock
            let (local, remote) = initiator == "central" ? (pair.central, pair.peripheral) : (pair.peripheral, pair.central)
            let (localHandle, remoteHandle) = initiator == "central" ? (pair.centralHandle, pair.peripheralHandle)
                                                                    : (pair.peripheralHandle, pair.centralHandle)
            let when = Mutex<ContinuousClock.Instant?>(nil)
            let atRemote = try await remote.expect("Disconnection Complete at the peer", timeout: .seconds(1)) { event -> HCIStatus? in
                guard case .hci(.disconnectionComplete(let c)) = event, c.handle == remoteHandle else { return nil }
                when.withLock { $0 = clock.now }
                return c.reason
            }
            let localReason = try await local.disconnect(handle: localHandle, reason: .remoteUserTerminatedConnection)
            let localTime = clock.now
            #expect(localReason == .connectionTerminatedByLocalHost)
            #expect(try await remote.wait(for: atRemote) == .remoteUserTerminatedConnection)
            let remoteTime = try #require(when.withLock { $0 })
            #expect(remoteTime.duration(to: localTime) == ConnectedPair.interval, "0x16 \(remoteTime.duration(to: localTime)) after the peer's 0x13")
            #expect(await local.connections.isEmpty)
            #expect(await remote.connections.isEmpty)
            let stats = await pair.world.air.statistics()
            #expect(stats.links == 0 && stats.handles == 0 && stats.armedTimers == 0)
        }
    }

    @Test func remoteFeaturesAndVersion() async throws {
        try await ConnectedPair.with { pair in
            let features = try await pair.central.expect("LE Read Remote Features Complete", timeout: .seconds(1)) { event -> LEFeatures? in
                if case .hci(.le(.readRemoteFeaturesComplete(.success, pair.centralHandle, let features))) = event { return features }
                return nil
            }
            try await pair.central.send(LEReadRemoteFeatures(handle: pair.centralHandle))
            // The configured features with those of its link layer: Data Packet Length Extension, LE 2M and LE Coded.
            #expect(try await pair.central.wait(for: features) == SimulatedWorldDescription.Controller.defaultLEFeatures.union([.leDataPacketLengthExtension, .le2MPHY, .leCodedPHY]))
            let version = try await pair.peripheral.expect("Read Remote Version Information Complete", timeout: .seconds(1)) { event -> RemoteVersion? in
                if case .hci(.readRemoteVersionComplete(let version)) = event { return version }
                return nil
            }
            try await pair.peripheral.send(ReadRemoteVersionInformation(handle: pair.peripheralHandle))
            let remote = try await pair.peripheral.wait(for: version)
            #expect(remote.handle == pair.peripheralHandle && remote.manufacturer.rawValue == 0x05F1 && remote.version.rawValue == 0x0D)
        }
    }

    /// LL_CONNECTION_UPDATE_IND rides the next event and the new parameters apply at its instant, six events
    /// later (Core v5.4 Vol 6 Part B §5.1.1: connInstant at least 6 events ahead; the world's
    /// `connectionUpdateInstantEvents`): both hosts hear LE Connection Update Complete then, seven intervals
    /// after the event the test starts at.
    @Test func connectionUpdateTakesEffectOnBothSides() async throws {
        try await ConnectedPair.with { pair in
            let clock = pair.world.air.clock
            let start = try await pair.hear(from: "peripheral")
            let updated = ConnectionParameters(intervalMin: 0x0008, intervalMax: 0x0010, latency: 0, supervisionTimeout: 0x0032)
            let atCentral = try await pair.central.expect("LE Connection Update Complete on the central", timeout: .seconds(1)) { event -> UInt16? in
                if case .hci(.le(.connectionUpdateComplete(.success, pair.centralHandle, let interval, _, _))) = event { return interval }
                return nil
            }
            let atPeripheral = try await pair.peripheral.expect("LE Connection Update Complete on the peripheral", timeout: .seconds(1)) { event -> UInt16? in
                if case .hci(.le(.connectionUpdateComplete(.success, pair.peripheralHandle, _, _, let timeout))) = event { return timeout }
                return nil
            }
            try await pair.central.send(LEConnectionUpdate(handle: pair.centralHandle, connection: updated))
            #expect(try await pair.central.wait(for: atCentral) == 0x0008)
            #expect(start.duration(to: clock.now) == ConnectedPair.interval * 7, "Update Complete after \(start.duration(to: clock.now))")
            #expect(try await pair.peripheral.wait(for: atPeripheral) == 0x0032)
            #expect(await pair.central.connections[pair.centralHandle]?.supervisionTimeout == 0x0032)
        }
    }

    /// LE Set PHY from the peripheral (§7.8.49): both hosts hear LE PHY Update Complete (§7.7.65.12), each with
    /// its own transmitter and receiver, so the central's transmitter is the peripheral's receiver.
    @Test func aPHYUpdateIsHeardOnBothSidesFromEachSide() async throws {
        try await ConnectedPair.with { pair in
            let atCentral = try await pair.central.expect("LE PHY Update Complete on the central", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .hci(.le(.phyUpdateComplete(.success, pair.centralHandle, let tx, let rx))) = event { return [tx, rx] }
                return nil
            }
            let atPeripheral = try await pair.peripheral.expect("LE PHY Update Complete on the peripheral", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .hci(.le(.phyUpdateComplete(.success, pair.peripheralHandle, let tx, let rx))) = event { return [tx, rx] }
                return nil
            }
            // The peripheral transmits on LE 2M and receives on LE Coded.
            try await pair.peripheral.send(LESetPHY(handle: pair.peripheralHandle, transmitPHYs: 0x02, receivePHYs: 0x04))
            #expect(try await pair.peripheral.wait(for: atPeripheral) == [2, 3])
            #expect(try await pair.central.wait(for: atCentral) == [3, 2])
        }
    }
}
