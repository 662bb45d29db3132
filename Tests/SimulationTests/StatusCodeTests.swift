import HCIPackets
import Simulation
import Testing

/// Wrong states and bad parameters get the Core spec's status codes, and malformed input never traps.
@Suite struct StatusCodeTests {
    @Test func commandDisallowedInTheWrongState() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central", "peripheral"]) { _, hosts in
            let (central, peripheral) = (hosts[0], hosts[1])
            try await HostScenarios.advertise(peripheral, name: "HIL-Busy")
            // §7.8.5: not while advertising.
            #expect(try await HostScenarios.status(of: LESetAdvertisingParameters(intervalMin: 0x40, intervalMax: 0x40), on: peripheral)
                    == .commandDisallowed)
            // §7.8.4: no random address change while advertising.
            #expect(try await HostScenarios.status(of: LESetRandomAddress(BDAddress(0xC0_00_00_00_00_01)), on: peripheral)
                    == .commandDisallowed)
            // §7.8.10: no scan parameters while scanning.
            try await central.send(LESetScanEnable(true))
            #expect(try await HostScenarios.status(of: LESetScanParameters(), on: central) == .commandDisallowed)
            try await central.send(LESetScanEnable(false))
            // §7.8.12: one LE Create Connection at a time.
            let silent = BDAddress(0x00_5A_1D_00_00_99)
            try await central.send(LECreateConnection(peerAddress: silent, peerAddressType: .public))
            #expect(try await HostScenarios.status(of: LECreateConnection(peerAddress: silent, peerAddressType: .public), on: central)
                    == .commandDisallowed)
            let cancelled = try await HostScenarios.expectConnectionComplete(central, "the central")
            try await central.send(LECreateConnectionCancel())
            #expect(try await central.wait(for: cancelled).status == .unknownConnectionIdentifier)
        }
    }

    @Test func unknownConnectionIdentifier() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let host = hosts[0]
            let disconnect = try await HostScenarios.status(of: Disconnect(handle: 0x0042), on: host)
            #expect(disconnect == .unknownConnectionIdentifier)
            #expect(try await HostScenarios.status(of: LEReadRemoteFeatures(handle: 0x0042), on: host) == .unknownConnectionIdentifier)
            #expect(try await HostScenarios.status(of: ReadRemoteVersionInformation(handle: 0x0042), on: host) == .unknownConnectionIdentifier)
            #expect(try await HostScenarios.status(of: LEConnectionUpdate(handle: 0x0042, connection: ConnectionParameters()), on: host)
                    == .unknownConnectionIdentifier)
        }
    }

    @Test func connectionAlreadyExists() async throws {
        // A 1 s connection interval: the first Disconnect completes only at the next connection event, so the
        // second arrives while it is under way (on virtual time the commands take no time at all; the long
        // interval keeps the test's claim independent of that).
        let slowLink = ConnectionParameters(intervalMin: 0x0320, intervalMax: 0x0320, latency: 0, supervisionTimeout: 0x01F4)
        try await ConnectedPair.with(connection: slowLink) { pair in
            let target = BDAddress(0x00_5A_1D_00_00_02)
            #expect(try await HostScenarios.status(of: LECreateConnection(peerAddress: target, peerAddressType: .public), on: pair.central)
                    == .connectionAlreadyExists)
            // A second Disconnect of the same link from the same side is disallowed while the first is under way.
            try await pair.central.send(Disconnect(handle: pair.centralHandle))
            #expect(try await HostScenarios.status(of: Disconnect(handle: pair.centralHandle), on: pair.central) == .commandDisallowed)
        }
    }

    @Test func invalidParametersOutOfRange() async throws {
        try await ConnectedPair.with { pair in
            let host = pair.central
            // Advertising interval below 20 ms, and min above max.
            let short = try await HostScenarios.status(of: LESetAdvertisingParameters(intervalMin: 0x0010, intervalMax: 0x0010), on: host)
            #expect(short == .invalidHCICommandParameters)
            #expect(try await HostScenarios.status(of: LESetAdvertisingParameters(intervalMin: 0x0100, intervalMax: 0x0080), on: host)
                    == .invalidHCICommandParameters)
            // Scan window longer than the interval.
            #expect(try await HostScenarios.status(of: LESetScanParameters(interval: 0x0010, window: 0x0020), on: host)
                    == .invalidHCICommandParameters)
            // Supervision timeout not above (1 + latency) × interval × 2: 100 ms against 2 × 4 s.
            let tooShort = ConnectionParameters(intervalMin: 0x0C80, intervalMax: 0x0C80, latency: 0, supervisionTimeout: 0x000A)
            #expect(try await HostScenarios.status(of: LECreateConnection(peerAddress: BDAddress(0x00_5A_1D_00_00_77), peerAddressType: .public,
                                                                          connection: tooShort), on: host) == .invalidHCICommandParameters)
            #expect(try await HostScenarios.status(of: LEConnectionUpdate(handle: pair.centralHandle, connection: tooShort), on: host)
                    == .invalidHCICommandParameters)
            // Connection Timeout is not a reason a host may give (§7.1.6).
            #expect(try await HostScenarios.status(of: Disconnect(handle: pair.centralHandle, reason: .connectionTimeout), on: host)
                    == .invalidHCICommandParameters)
            // Advertising with a random address that was never set.
            #expect(try await HostScenarios.status(of: LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20, ownAddressType: .random),
                                                   on: host) == .success)
            #expect(try await HostScenarios.status(of: LESetAdvertisingEnable(true), on: host) == .invalidHCICommandParameters)
        }
    }

    /// Every implemented command with a parameter length it does not take gets 0x12 in the event it
    /// normally completes with, and the controller keeps answering.
    @Test func wrongParameterLengthsGetInvalidParameters() async throws {
        let lengths: [(HCIOpcode, Int, HCICommandCompletion)] = [
            (.reset, 0, .complete), (.setEventMask, 8, .complete), (.setEventMaskPage2, 8, .complete), (.writeLEHostSupport, 2, .complete),
            (.readLocalVersionInformation, 0, .complete), (.readLocalSupportedCommands, 0, .complete),
            (.readLocalSupportedFeatures, 0, .complete), (.readBufferSize, 0, .complete), (.readBDADDR, 0, .complete),
            (.leSetEventMask, 8, .complete), (.leReadBufferSize, 0, .complete), (.leReadLocalSupportedFeatures, 0, .complete),
            (.leSetRandomAddress, 6, .complete), (.leSetAdvertisingParameters, 15, .complete),
            (.leReadAdvertisingPhysicalChannelTxPower, 0, .complete), (.leSetAdvertisingData, 32, .complete),
            (.leSetScanResponseData, 32, .complete), (.leSetAdvertisingEnable, 1, .complete), (.leSetScanParameters, 7, .complete),
            (.leSetScanEnable, 2, .complete), (.leCreateConnection, 25, .status), (.leCreateConnectionCancel, 0, .complete),
            (.leReadFilterAcceptListSize, 0, .complete), (.leConnectionUpdate, 14, .status), (.leReadRemoteFeatures, 2, .status),
            (.leRand, 0, .complete), (.leReadSupportedStates, 0, .complete), (.leReadMaximumAdvertisingDataLength, 0, .complete),
            (.disconnect, 3, .status), (.readRemoteVersionInformation, 2, .status),
            (.leEncrypt, 32, .complete), (.leEnableEncryption, 28, .status), (.leLongTermKeyRequestReply, 18, .complete),
            (.leLongTermKeyRequestNegativeReply, 2, .complete),
        ]
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let host = hosts[0]
            var checked = 0
            for (opcode, valid, completion) in lengths {
                for length in Set([0, 1, valid - 1, valid + 1, 40]) where length >= 0 && length != valid {
                    let packet = HCICommandPacket(opcode: opcode, parameters: [UInt8](repeating: 0xA5, count: length))
                    let status = try await HostScenarios.status(ofRaw: packet, completion: completion, on: host)
                    #expect(status == .invalidHCICommandParameters, "\(opcode) with \(length) parameter bytes gave \(status)")
                    checked += 1
                }
            }
            #expect(checked > 100)
            #expect(try await host.send(ReadBDADDR()) == BDAddress(0x00_5A_1D_00_00_01))
        }
    }

    @Test(arguments: [HCIOpcode(rawValue: 0x0C14), HCIOpcode(rawValue: 0xFC01), HCIOpcode.leSetExtendedAdvertisingParameters])
    func unknownCommandsGetUnknownHCICommand(opcode: HCIOpcode) async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let status = try await HostScenarios.status(ofRaw: HCICommandPacket(opcode: opcode, parameters: [1, 2, 3]), on: hosts[0])
            #expect(status == .unknownHCICommand)
        }
    }

    /// Bytes that are not H4 (an unknown packet indicator) are a hardware error, after which the
    /// controller takes a Reset and works again.
    @Test func garbageBytesAreAHardwareErrorNotATrap() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let host = hosts[0]
            let transport = try #require(host.transport as? SimulatedTransport)
            let hardwareError = try await host.expect("Hardware Error", timeout: .seconds(1)) { event -> UInt8? in
                if case .hci(.hardwareError(let code)) = event { return code }
                return nil
            }
            try transport.write([0xFF, 0x00, 0x13, 0x37])
            #expect(try await host.wait(for: hardwareError) == 0x01)
            try await host.initialize()
            #expect(await host.state == .poweredOn)
        }
    }

    /// A command written one byte at a time is framed like one written whole.
    @Test func commandBytesOneAtATime() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let host = hosts[0]
            let transport = try #require(host.transport as? SimulatedTransport)
            let answer = try await host.expect("Command Complete for Read BD_ADDR", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .hci(.commandComplete(_, .readBDADDR, let parameters)) = event { return parameters }
                return nil
            }
            for byte in HCIPacket.command(ReadBDADDR().packet).h4Bytes { try transport.write([byte]) }
            #expect(try await host.wait(for: answer) == [0x00] + BDAddress(0x00_5A_1D_00_00_01).littleEndianBytes)
        }
    }
}
