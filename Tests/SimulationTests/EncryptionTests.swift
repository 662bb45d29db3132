import HCIPackets
import HostCore
@testable import Simulation
import Testing

/// LE encryption on a simulated link as the hosts see it (Core v5.4 Vol 4 Part E §7.8.24–§7.8.26,
/// Vol 6 Part B §5.1.3): the central asks, the peripheral's host gives the key, both hosts hear the
/// outcome; a wrong key is a MIC failure, a missing one PIN or Key Missing, silence an LL response timeout.
@Suite struct EncryptionTests {
    /// Keys in HCI order (least significant octet first), as the hosts send them.
    static let key: [UInt8] = Array(0x10...0x1F)
    static let otherKey = [UInt8](repeating: 0x5A, count: 16)
    static let random: UInt64 = 0x0123_4567_89AB_CDEF
    static let ediv: UInt16 = 0x1234

    /// Expects the peripheral's LE Long Term Key Request.
    static func expectKeyRequest(_ pair: ConnectedPair, timeout: Duration = .seconds(2)) async throws -> HostCore.Expectation<LEMetaEvent> {
        let handle = pair.peripheralHandle
        return try await pair.peripheral.expect("LE Long Term Key Request for handle \(handle)", timeout: timeout) { event -> LEMetaEvent? in
            if case .hci(.le(let le)) = event, case .longTermKeyRequest(handle, _, _) = le { return le }
            return nil
        }
    }

    /// Expects Encryption Change or Encryption Key Refresh Complete for `handle` on `host`.
    static func expectOutcome(_ host: HCIHost, handle: UInt16, _ what: String,
                              timeout: Duration = .seconds(2)) async throws -> HostCore.Expectation<HCIEvent> {
        try await host.expect("Encryption Change or Key Refresh Complete for handle \(handle) on \(what)", timeout: timeout) { event -> HCIEvent? in
            guard case .hci(let hci) = event else { return nil }
            switch hci {
            case .encryptionChange(_, handle, _), .encryptionKeyRefreshComplete(_, handle): return hci
            default: return nil
            }
        }
    }

    /// The central asks with `key`; the peripheral's host answers with `reply` once the request is in.
    /// Returns what each host heard.
    static func encrypt(_ pair: ConnectedPair, reply: [UInt8]) async throws -> (central: HCIEvent, peripheral: HCIEvent) {
        let request = try await expectKeyRequest(pair)
        let atCentral = try await expectOutcome(pair.central, handle: pair.centralHandle, "the central")
        let atPeripheral = try await expectOutcome(pair.peripheral, handle: pair.peripheralHandle, "the peripheral")
        try await pair.central.send(LEEnableEncryption(handle: pair.centralHandle, random: random, ediv: ediv, longTermKey: key))
        #expect(try await pair.peripheral.wait(for: request) == .longTermKeyRequest(handle: pair.peripheralHandle, random: random, ediv: ediv))
        #expect(try await pair.peripheral.send(LELongTermKeyRequestReply(handle: pair.peripheralHandle, longTermKey: reply))
                == pair.peripheralHandle)
        return (try await pair.central.wait(for: atCentral), try await pair.peripheral.wait(for: atPeripheral))
    }

    @Test func matchingKeysEncryptTheLinkOnBothSides() async throws {
        try await ConnectedPair.with { pair in
            #expect(await pair.world.air.isEncrypted("central", handle: pair.centralHandle) == false)
            let (central, peripheral) = try await Self.encrypt(pair, reply: Self.key)
            #expect(central == .encryptionChange(status: .success, handle: pair.centralHandle, enabled: 0x01))
            #expect(peripheral == .encryptionChange(status: .success, handle: pair.peripheralHandle, enabled: 0x01))
            #expect(await pair.world.air.isEncrypted("central", handle: pair.centralHandle) == true)
            #expect(await pair.world.air.isEncrypted("peripheral", handle: pair.peripheralHandle) == true)
        }
    }

    @Test func encryptingAnEncryptedLinkIsAKeyRefreshOnBothSides() async throws {
        try await ConnectedPair.with { pair in
            _ = try await Self.encrypt(pair, reply: Self.key)
            let (central, peripheral) = try await Self.encrypt(pair, reply: Self.key)
            #expect(central == .encryptionKeyRefreshComplete(status: .success, handle: pair.centralHandle))
            #expect(peripheral == .encryptionKeyRefreshComplete(status: .success, handle: pair.peripheralHandle))
            #expect(await pair.world.air.isEncrypted("central", handle: pair.centralHandle) == true)
        }
    }

    /// The peripheral's key differs from the central's: the first encrypted packet fails its MIC check.
    @Test func mismatchedKeysEndTheLinkWithMICFailureOnBothSides() async throws {
        try await ConnectedPair.with { pair in
            let request = try await Self.expectKeyRequest(pair)
            let lostCentral = try await HostScenarios.expectDisconnection(pair.central, handle: pair.centralHandle, "the central")
            let lostPeripheral = try await HostScenarios.expectDisconnection(pair.peripheral, handle: pair.peripheralHandle, "the peripheral")
            try await pair.central.send(LEEnableEncryption(handle: pair.centralHandle, random: Self.random, ediv: Self.ediv,
                                                           longTermKey: Self.key))
            _ = try await pair.peripheral.wait(for: request)
            _ = try await pair.peripheral.send(LELongTermKeyRequestReply(handle: pair.peripheralHandle, longTermKey: Self.otherKey))
            #expect(try await pair.central.wait(for: lostCentral) == .connectionTerminatedDueToMICFailure)
            #expect(try await pair.peripheral.wait(for: lostPeripheral) == .connectionTerminatedDueToMICFailure)
            let stats = await pair.world.air.statistics()
            #expect(stats.links == 0 && stats.armedTimers == 0 && stats.handles == 0)
        }
    }

    /// No key: the central's host hears PIN or Key Missing, the peripheral's host only its Command
    /// Complete, and the link carries on unencrypted.
    @Test func aNegativeReplyIsPINOrKeyMissingAtTheCentralAndTheLinkStays() async throws {
        try await ConnectedPair.with { pair in
            let request = try await Self.expectKeyRequest(pair)
            let atCentral = try await Self.expectOutcome(pair.central, handle: pair.centralHandle, "the central")
            let atPeripheral = try await Self.expectOutcome(pair.peripheral, handle: pair.peripheralHandle, "the peripheral",
                                                            timeout: .milliseconds(300))
            try await pair.central.send(LEEnableEncryption(handle: pair.centralHandle, random: Self.random, ediv: Self.ediv,
                                                           longTermKey: Self.key))
            _ = try await pair.peripheral.wait(for: request)
            #expect(try await pair.peripheral.send(LELongTermKeyRequestNegativeReply(handle: pair.peripheralHandle)) == pair.peripheralHandle)
            #expect(try await pair.central.wait(for: atCentral)
                    == .encryptionChange(status: .pinOrKeyMissing, handle: pair.centralHandle, enabled: 0x00))
            #expect(try await HostScenarios.valueOrTimeout(atPeripheral, on: pair.peripheral) == nil)
            #expect(await pair.world.air.isEncrypted("central", handle: pair.centralHandle) == false)
            // Still connected: a procedure on the link completes, and ACL data crosses it.
            let features = try await pair.central.expect("LE Read Remote Features Complete", timeout: .seconds(2)) { event -> HCIStatus? in
                if case .hci(.le(.readRemoteFeaturesComplete(let status, _, _))) = event { return status }
                return nil
            }
            try await pair.central.send(LEReadRemoteFeatures(handle: pair.centralHandle))
            #expect(try await pair.central.wait(for: features) == .success)
            #expect(await pair.peripheral.connections[pair.peripheralHandle] != nil)
        }
    }

    /// ACL data waits while encryption starts (Vol 6 Part B §5.1.3.1) and crosses once it is on.
    @Test func dataWaitsForTheEncryptionToStart() async throws {
        try await ConnectedPair.with { pair in
            let request = try await Self.expectKeyRequest(pair)
            let atPeripheral = try await Self.expectOutcome(pair.peripheral, handle: pair.peripheralHandle, "the peripheral")
            try await pair.central.send(LEEnableEncryption(handle: pair.centralHandle, random: Self.random, ediv: Self.ediv,
                                                           longTermKey: Self.key))
            _ = try await pair.peripheral.wait(for: request)
            let pdu = HostScenarios.pdu(10)
            let early = try await pair.peripheral.expect("a PDU during the procedure", timeout: .milliseconds(200)) { event -> [UInt8]? in
                if case .aclPDU(_, let data) = event { return data }
                return nil
            }
            try await pair.central.sendACL(handle: pair.centralHandle, pdu: pdu)
            #expect(try await HostScenarios.valueOrTimeout(early, on: pair.peripheral) == nil)
            let arrived = try await pair.peripheral.expect("the PDU after the procedure", timeout: .seconds(2)) { event -> [UInt8]? in
                if case .aclPDU(_, let data) = event { return data }
                return nil
            }
            _ = try await pair.peripheral.send(LELongTermKeyRequestReply(handle: pair.peripheralHandle, longTermKey: Self.key))
            _ = try await pair.peripheral.wait(for: atPeripheral)
            #expect(try await pair.peripheral.wait(for: arrived) == pdu)
        }
    }

    /// The peripheral's host never answers: the central's LL response timer (40 s, Core v5.4 Vol 6 Part B
    /// §5.2, started at the event that carried LL_ENC_REQ, when the peripheral's host hears the request) ends
    /// the link with LL Response Timeout on both sides, exactly 40 s of the world's time later. The world runs
    /// on virtual time, so the clock jumps over the wait instead of sleeping through it.
    @Test func noAnswerEndsTheLinkWithLLResponseTimeoutAfter40Seconds() async throws {
        try await ConnectedPair.with { pair in
            let clock = pair.world.air.clock
            let time = try #require(clock.virtual)
            let request = try await Self.expectKeyRequest(pair)
            let lostCentral = try await HostScenarios.expectDisconnection(pair.central, handle: pair.centralHandle, "the central",
                                                                          timeout: .seconds(60))
            let lostPeripheral = try await HostScenarios.expectDisconnection(pair.peripheral, handle: pair.peripheralHandle,
                                                                             "the peripheral", timeout: .seconds(60))
            try await pair.central.send(LEEnableEncryption(handle: pair.centralHandle, random: Self.random, ediv: Self.ediv,
                                                           longTermKey: Self.key))
            _ = try await pair.peripheral.wait(for: request)
            let asked = clock.now
            let skippedBefore = time.jumps.skipped
            #expect(try await pair.central.wait(for: lostCentral) == .llResponseTimeout)
            #expect(try await pair.peripheral.wait(for: lostPeripheral) == .llResponseTimeout)
            let waited = asked.duration(to: clock.now)
            #expect(waited == .seconds(40), "0x22 after \(waited)")
            // Nothing happened on the link meanwhile, so the clock jumped the whole wait.
            #expect(time.jumps.skipped - skippedBefore == .seconds(40), "the clock jumped \(time.jumps.skipped - skippedBefore) of the 40 s")
            let stats = await pair.world.air.statistics()
            #expect(stats.links == 0 && stats.armedTimers == 0)
        }
    }

    @Test func wrongSideUnknownHandleAndUnaskedRepliesAreRefused() async throws {
        try await ConnectedPair.with { pair in
            // Only the central starts encryption (§7.8.24).
            let onPeripheral = LEEnableEncryption(handle: pair.peripheralHandle, random: 0, ediv: 0, longTermKey: Self.key)
            #expect(try await HostScenarios.status(of: onPeripheral, on: pair.peripheral) == .commandDisallowed)
            let unknown = LEEnableEncryption(handle: 0x0042, random: 0, ediv: 0, longTermKey: Self.key)
            #expect(try await HostScenarios.status(of: unknown, on: pair.central) == .unknownConnectionIdentifier)
            // Replies to a request that never came (§7.8.25, §7.8.26), from either side.
            let reply = LELongTermKeyRequestReply(handle: pair.peripheralHandle, longTermKey: Self.key)
            #expect(try await HostScenarios.status(of: reply, on: pair.peripheral) == .commandDisallowed)
            let negative = LELongTermKeyRequestNegativeReply(handle: pair.peripheralHandle)
            #expect(try await HostScenarios.status(of: negative, on: pair.peripheral) == .commandDisallowed)
            let fromCentral = LELongTermKeyRequestReply(handle: pair.centralHandle, longTermKey: Self.key)
            #expect(try await HostScenarios.status(of: fromCentral, on: pair.central) == .commandDisallowed)
            #expect(try await HostScenarios.status(of: LELongTermKeyRequestReply(handle: 0x0042, longTermKey: Self.key), on: pair.peripheral)
                    == .unknownConnectionIdentifier)
            // The link is unharmed.
            _ = try await Self.encrypt(pair, reply: Self.key)
            #expect(await pair.world.air.isEncrypted("central", handle: pair.centralHandle) == true)
        }
    }

    /// LE Encrypt is AES-128 with HCI's octet order: FIPS-197 Appendix C.1, and the session key of the
    /// encryption sample data (Core v5.4 Vol 6 Part C §1: SK = e(LTK, SKD)), each reversed in and out.
    @Test(arguments: [
        ("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"),
        ("4c68384139f574d836bcf34e9dfb01bf", "0213243546576879acbdcedfe0f10213", "99ad1b5226a37e3e058e3b8e27c2c666"),
    ])
    func leEncryptIsAES128LeastSignificantOctetFirst(vector: (key: String, plaintext: String, encrypted: String)) async throws {
        func hci(_ hex: String) -> [UInt8] {
            stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
            }.reversed()
        }
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let encrypted = try await hosts[0].send(LEEncrypt(key: hci(vector.key), plaintext: hci(vector.plaintext)))
            #expect(encrypted == hci(vector.encrypted))
        }
    }

    @Test func theDefaultControllersSupportLEEncryption() async throws {
        #expect(SimulatedWorldDescription.Controller.defaultLEFeatures.contains(.leEncryption))
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let info = try #require(await hosts[0].controllerInfo)
            #expect(info.leFeatures.contains(.leEncryption))
            // Supported Commands: LE Encrypt and LE Rand (octet 27 bits 6, 7), LE Enable Encryption and the
            // LTK replies (octet 28 bits 0–2).
            #expect(info.supports(octet: 27, bit: 6) && info.supports(octet: 27, bit: 7))
            #expect(info.supports(octet: 28, bit: 0) && info.supports(octet: 28, bit: 1) && info.supports(octet: 28, bit: 2))
            let first = try await hosts[0].send(LERand()), second = try await hosts[0].send(LERand())
            #expect(first != second)
        }
    }

    /// A peer whose link layer has no LE Encryption rejects LL_ENC_REQ: Unsupported Remote Feature.
    @Test func aPeerWithoutEncryptionRejectsTheRequest() async throws {
        var description = SimulatedWorldFixture.twoControllers
        description.controllers[1].leFeatures = [.peripheralInitiatedFeaturesExchange]
        try await ConnectedPair.with(description) { pair in
            let atCentral = try await Self.expectOutcome(pair.central, handle: pair.centralHandle, "the central")
            try await pair.central.send(LEEnableEncryption(handle: pair.centralHandle, random: 0, ediv: 0, longTermKey: Self.key))
            #expect(try await pair.central.wait(for: atCentral)
                    == .encryptionChange(status: .unsupportedRemoteFeature, handle: pair.centralHandle, enabled: 0x00))
            #expect(await pair.peripheral.connections[pair.peripheralHandle] != nil)
        }
    }
}
