import HCIPackets
import HostCore
import GATT
import SMP
import Roles
import Simulation
import Testing
import TestSupport

/// Pairing, encryption and bonds between two of our own `LEDevice`s on simulated controllers: the
/// procedures' edges that a well-behaved peer never shows (a Security Request, a silent or malformed
/// peer, Repeated Attempts, a bond the peer does not have).
@Suite struct SecurityOnSimulatedWorldTests {
    /// An accessory serving HIL Protected Data (encryption required) on `sim:peripheral`, a central on
    /// `sim:central`: a world on virtual time, the body a drive of its clock.
    struct Devices {
        let world: SimulatedWorld
        let accessory: LEDevice
        let central: LEDevice

        static func with(accessoryOptions: PairingOptions?, _ body: (Devices) async throws -> Void) async throws {
            try await SimulatedWorldFixture.drive { world in
                let database = try GATTDatabase(services: [.gap(name: "HIL-Secure"), .gatt(),
                                                           .protectedData(value: Array("secret-42".utf8), level: .encryption)])
                let accessory = LEDevice(host: try HCIHost(transport: world.openTransport(named: "peripheral")), database: database)
                let central = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")))
                await accessory.configureSecurity(pairing: accessoryOptions, bonds: InMemoryBondStore(), identity: try LocalIdentity.randomStatic())
                await central.configureSecurity(pairing: PairingOptions(), bonds: InMemoryBondStore(), identity: try LocalIdentity.randomStatic())
                do {
                    try await body(Devices(world: world, accessory: accessory, central: central))
                } catch {
                    await accessory.close(); await central.close()
                    throw error
                }
                await accessory.close(); await central.close()
            }
        }

        func connect() async throws -> (central: LEConnection, peripheral: LEConnection) {
            let incoming = await accessory.incomingConnections()
            try await accessory.startAdvertising(Advertisement(name: "HIL-Secure", interval: 32))
            let link = try await central.connect(matching: ScanFilter(name: "HIL-Secure"), scanTimeout: .seconds(2), timeout: .seconds(2))
            // Both sides complete at the same advertising event: the accessory's side is already on its stream.
            let peripheral = try await TestSupport.first(of: incoming, within: .seconds(1), clock: world.air.clock, "the accessory's connection")
            return (link, peripheral)
        }
    }

    @Test func aSecurityRequestFromThePeripheralMakesTheCentralPair() async throws {
        try await Devices.with(accessoryOptions: PairingOptions(ioCapability: .noInputNoOutput)) { devices in
            let (link, peripheral) = try await devices.connect()
            let requested = try await peripheral.pair(PairingOptions(ioCapability: .noInputNoOutput), timeout: .seconds(5))
            #expect(requested.method == .justWorks)
            #expect(await link.securityRequested?.contains(.bonding) == true)
            #expect(try await link.waitForEncryption(timeout: .seconds(2)).encrypted)
            #expect(await peripheral.security.encrypted)
            // Both sides bonded; the identities they exchanged are each other's.
            let centralIdentity = try #require(await devices.central.identity)
            #expect(requested.bond.peerAddress == centralIdentity.address)
            #expect(await devices.accessory.bond(for: centralIdentity.address, type: .random) != nil)
            _ = try await link.disconnect()
        }
    }

    @Test func aSilentPeerEndsThePairingAtTheSMPTimeoutAndNoMoreSMPFollows() async throws {
        try await SimulatedWorldFixture.with(hosts: ["peripheral"]) { world, hosts in
            // A peripheral with no SMP at all: its raw host never answers.
            try await hosts[0].send(LESetAdvertisingParameters(intervalMin: 32, intervalMax: 32))
            try await hosts[0].send(LESetAdvertisingEnable(true))
            let central = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")))
            let link = try await central.connect(to: BDAddress(0x00_5A_1D_00_00_02), type: .public, timeout: .seconds(2))
            let clock = world.air.clock
            let asked = clock.now
            do throws(SecurityError) {
                _ = try await link.pair(PairingOptions(), timeout: .milliseconds(300))
                Issue.record("pairing with a silent peer succeeded")
            } catch {
                guard case .timeout(let awaited, _) = error else { throw error }
                #expect(awaited == "Pairing Response")
                #expect(error.description.contains("SMP timeout: no Pairing Response after"), "\(error)")
            }
            // The SMP timer starts with the Pairing Request (Core v5.4 Vol 3 Part H §3.4), here 300 ms long.
            #expect(asked.duration(to: clock.now) == .milliseconds(300), "the pairing ended after \(asked.duration(to: clock.now))")
            do throws(SecurityError) {
                _ = try await link.pair(PairingOptions())
                Issue.record("a second pairing started after the SMP timeout")
            } catch {
                #expect(error.description.contains("SMP timed out on this link earlier"), "\(error)")
            }
            await central.close()
        }
    }

    @Test func aMalformedPairingResponseFailsThePairingWithInvalidParameters() async throws {
        try await SimulatedWorldFixture.with(hosts: ["peripheral"]) { world, hosts in
            let peripheral = hosts[0]
            try await peripheral.send(LESetAdvertisingParameters(intervalMin: 32, intervalMax: 32))
            try await peripheral.send(LESetAdvertisingEnable(true))
            let events = await peripheral.events()
            let central = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")))
            let link = try await central.connect(to: BDAddress(0x00_5A_1D_00_00_02), type: .public, timeout: .seconds(2))
            // On the world's loop, where virtual time sees it (an unstructured task's own executor would not be).
            let pairing = Task(executorPreference: world.air.clock.taskExecutor) { try await link.pair(PairingOptions(), timeout: .seconds(5)) }
            // The peripheral's host sees the Pairing Request, and answers with a Pairing Response 3 octets short.
            var handle: UInt16?
            var received: [[UInt8]] = []
            for await event in events {
                if case .aclPDU(let on, let pdu) = event, let frame = try? L2CAPFrame(decoding: pdu), frame.channel == L2CAPChannelID.smp {
                    handle = on
                    received.append(frame.payload)
                    if frame.payload.first == SMPCode.pairingRequest.rawValue {
                        try await peripheral.sendACL(handle: on, pdu: L2CAPFrame(channel: L2CAPChannelID.smp, payload: [0x02, 0x03, 0x00, 0x01]).encoded)
                    }
                    if frame.payload.first == SMPCode.pairingFailed.rawValue { break }
                }
            }
            #expect(handle != nil)
            #expect(received.last == [0x05, 0x0A], "the central answers Pairing Failed, 0x0A Invalid Parameters: \(received)")
            do {
                _ = try await pairing.value
                Issue.record("pairing with a malformed Pairing Response succeeded")
            } catch let error as SecurityError {
                guard case .pairingFailed(let reason, let byPeer, _) = error else { throw error }
                #expect(reason == .invalidParameters && !byPeer)
                #expect(error.description.contains("Pairing Response (0x02): parameters are 3 octets, not 6"), "\(error)")
            }
            #expect(await link.isConnected, "a bad SMP PDU fails the pairing, not the link")
            await central.close()
        }
    }

    /// After a failed pairing the responder refuses the next Pairing Request with Repeated Attempts until the
    /// waiting interval, 1 s after one failure (Core v5.4 Vol 3 Part H §2.3.6), has passed since the failure.
    @Test func aFailedPairingMakesAnImmediateRetryARepeatedAttempt() async throws {
        let accessoryOptions = PairingOptions(ioCapability: .displayOnly, mitm: true, passkey: 123_456)
        try await Devices.with(accessoryOptions: accessoryOptions) { devices in
            let clock = devices.world.air.clock
            let (link, _) = try await devices.connect()
            // The instant the accessory counts its failure from: when it publishes the failed pairing (on the
            // world's loop, so the stamp is the publication's instant).
            let failures = await devices.accessory.pairingEvents()
            let failed = Task(executorPreference: clock.taskExecutor) { () -> ContinuousClock.Instant? in
                for await event in failures {
                    if case .failed = event { return clock.now }
                }
                return nil
            }
            defer { failed.cancel() }
            let wrong = PairingOptions(ioCapability: .keyboardOnly, mitm: true, passkey: 111_111)
            do throws(SecurityError) {
                _ = try await link.pair(wrong, timeout: .seconds(5))
                Issue.record("a wrong passkey paired")
            } catch {
                guard case .pairingFailed(let reason, _, _) = error else { throw error }
                #expect(reason == .confirmValueFailed)
            }
            do throws(SecurityError) {
                _ = try await link.pair(PairingOptions(ioCapability: .keyboardOnly, mitm: true, passkey: 123_456), timeout: .seconds(5))
                Issue.record("an immediate retry was accepted")
            } catch {
                guard case .pairingFailed(let reason, let byPeer, _) = error else { throw error }
                #expect(reason == .repeatedAttempts && byPeer, "\(error)")
            }
            // Once the waiting interval has passed since the accessory's failure, the right passkey pairs.
            let failure = try #require(await failed.value, "the accessory published no failed pairing")
            try await clock.sleep(until: failure.advanced(by: .seconds(1)))
            let result = try await link.pair(PairingOptions(ioCapability: .keyboardOnly, mitm: true, passkey: 123_456), timeout: .seconds(10))
            #expect(result.method == .passkeyEntry(.responderDisplays))
            _ = try await link.disconnect()
        }
    }

    @Test func aBondThePeerDoesNotHaveIsNamedAsLost() async throws {
        try await Devices.with(accessoryOptions: PairingOptions()) { devices in
            let (link, _) = try await devices.connect()
            let invented = Bond(peerAddress: link.peerAddress, peerAddressType: link.peerAddressType,
                                longTermKey: LongTermKey(key: Array(repeating: 0x42, count: 16), ediv: 0x1234, random: 0x5678),
                                localLongTermKey: nil, keySize: 16, authenticated: false, secureConnections: false, method: "just-works")
            do throws(SecurityError) {
                try await link.encrypt(with: invented)
                Issue.record("encryption with a key the peer never had succeeded")
            } catch {
                guard case .encryptionFailed(let status, _) = error else { throw error }
                #expect(status == .pinOrKeyMissing)
                #expect(error.description == "the peer has lost the bond: 0x06 PIN or Key Missing", "\(error)")
            }
            #expect(await link.isConnected)
            #expect(await link.security.encrypted == false)
            _ = try await link.disconnect()
        }
    }

    @Test func theProtectedValueNeedsEncryptionAndABondReencrypts() async throws {
        try await Devices.with(accessoryOptions: PairingOptions()) { devices in
            var (link, _) = try await devices.connect()
            let tree = try await link.gatt.discoverAll()
            let handle = try #require(tree.characteristics.first { $0.uuid == .protectedData }?.valueHandle)
            do throws(ATTError) {
                _ = try await link.gatt.read(handle: handle)
                Issue.record("read on an unencrypted link")
            } catch {
                #expect(error.errorCode == .insufficientEncryption)
                #expect(error.needsSecurity)
            }
            let result = try await link.pair(PairingOptions(), timeout: .seconds(5))
            #expect(try await link.gatt.read(handle: handle) == Array("secret-42".utf8))
            _ = try await link.disconnect()
            (link, _) = try await devices.connect()
            try await link.encrypt(with: result.bond)
            #expect(await link.lastPairing == nil)
            #expect(try await link.gatt.read(handle: handle) == Array("secret-42".utf8))
            _ = try await link.disconnect()
        }
    }
}

extension SecurityOnSimulatedWorldTests {
    /// An accessory with LE privacy advertises with a new resolvable private address every time; a central
    /// that bonded with it finds it by its identity address (the scan resolves with the bond's IRK) and
    /// re-encrypts with the bond.
    @Test func aBondedAccessoryWithPrivacyIsFoundByItsIdentityAddress() async throws {
        try await Devices.with(accessoryOptions: PairingOptions()) { devices in
            let identity = try LocalIdentity.randomStatic()
            await devices.accessory.configureSecurity(pairing: PairingOptions(), bonds: InMemoryBondStore(), identity: identity, privateAddresses: true)
            let (link, _) = try await devices.connect()
            let first = link.peerAddress
            #expect(first.isResolvablePrivate, "advertised with \(first)")
            let result = try await link.pair(PairingOptions(), timeout: .seconds(5))
            #expect(result.bond.peerAddress == identity.address, "the bond is keyed on the identity it distributed")
            #expect(result.bond.peerIdentityResolvingKey == identity.identityResolvingKey)
            _ = try await link.disconnect()
            // It advertises again after the link ends, with another private address.
            let found = try await devices.central.find(ScanFilter(address: identity.address), timeout: .seconds(2))
            #expect(found.address != first && found.address.isResolvablePrivate, "found \(found.address), first \(first)")
            let bond = try #require(await devices.central.bond(for: found.address, type: found.addressType))
            let again = try await devices.central.connect(to: found.address, type: found.addressType, timeout: .seconds(2))
            try await again.encrypt(with: bond)
            #expect(await again.security.encrypted)
            // Without the bond's IRK the same filter finds nothing.
            _ = try await again.disconnect()
            let stranger = LEDevice(host: devices.central.host)
            do throws(RoleError) {
                let seen = try await stranger.find(ScanFilter(address: identity.address), timeout: .milliseconds(300))
                Issue.record("found \(seen.address) without the IRK")
            } catch {
                guard case .notFound = error else { throw error }
            }
        }
    }
}
