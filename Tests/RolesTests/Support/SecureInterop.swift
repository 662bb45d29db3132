// Test kind: peer — SMP interop scenarios against Bumble's processes on btvirt or Rootcanal, on real time.
import Foundation
import Testing
import TestSupport
@testable import HCIPackets
@testable import HostCore
@testable import GATT
@testable import SMP
@testable import Roles

/// Our SMP against Bumble's secure peers (scripts/peers/bumble-secure-accessory.py and
/// bumble-secure-central.py), one scenario per function, on whatever air `transport` names (btvirt's
/// socket, Rootcanal's port): SecurityInteropBtvirtTests and SecurityInteropRootcanalTests run them.
/// Every scenario prints what it measured (`[security-interop] …` lines) and asserts no duration.
///
/// Real peers on real time: the bounds below are on the wall clock, each far above what its step takes on an
/// idle machine, so that a loaded 2-core one (btvirt or Rootcanal, Bumble's Python and our test all on it)
/// still fits; none measures our code's speed.
enum SecureInterop {
    /// A scan for an advertiser: Bumble's accessory advertises every 30 ms from READY on, ours every 20 ms,
    /// so the first report comes within milliseconds; 5 s is room for a loaded machine.
    static let scanLimit: Duration = .seconds(5)
    /// A pairing or encryption seen through to its end, and each line the accessory prints about one: a
    /// Secure Connections passkey pairing takes about 2 s on Rootcanal (its 20 rounds follow the connection
    /// events) and well under one on btvirt; 10 s is room for Bumble's Python on a loaded machine.
    static let pairingBound: Duration = .seconds(10)
    /// How long a Bumble central may run, in seconds (its own `--timeout`, after which it ends itself): a
    /// scan, a connection, a pairing or two and a read take about 3 s on Rootcanal; the rest is Python's
    /// start-up and a loaded machine's scheduling.
    static let centralRunLimit: Double = 15
    /// How long a side effect no event announces may take to show (polled): Bumble's key store written
    /// after PAIRED, our link's record of the pairing it answered with: milliseconds, with room for load.
    static let sideEffectBound: Duration = .seconds(3)

    /// The passkey the displaying side shows and the entering side types.
    static let passkey: UInt32 = 123456
    /// A passkey that is not the one displayed (it differs from 123456 in bit 0, so the first round of
    /// Secure Connections passkey entry already fails).
    static let wrongPasskey: UInt32 = 654321

    /// One pairing configuration: the method both sides' IO capabilities select and whether it is LE
    /// legacy pairing. `legacyOnOurSide`: we do not offer Secure Connections (the peer does), instead of
    /// the peer not offering it.
    struct Case: Sendable, CustomTestStringConvertible {
        let method: String
        let legacy: Bool
        var legacyOnOurSide = false

        static let justWorksSC = Case(method: "just-works", legacy: false)
        static let justWorksLegacy = Case(method: "just-works", legacy: true)
        static let passkeySC = Case(method: "passkey", legacy: false)
        static let passkeyLegacy = Case(method: "passkey", legacy: true)
        static let passkeyLegacyOurs = Case(method: "passkey", legacy: true, legacyOnOurSide: true)
        static let numericComparison = Case(method: "numeric-comparison", legacy: false)

        var label: String { "\(method) \(legacy ? (legacyOnOurSide ? "legacy (we offer no SC)" : "legacy") : "SC")" }
        var testDescription: String { label }
        /// Bumble's name for the method: JUST_WORKS, PASSKEY, NUMERIC_COMPARISON.
        var bumbleMethod: String { method.uppercased().replacingOccurrences(of: "-", with: "_") }
        var authenticated: Bool { method != "just-works" }
        /// The accessory's legacy flag (the peer does not offer Secure Connections).
        var accessoryLegacy: Bool { legacy && !legacyOnOurSide }

        /// Our options as central (initiator): we enter the passkey the accessory displays, or compare.
        func centralOptions(passkey: UInt32 = SecureInterop.passkey) throws -> PairingOptions {
            try PairingOptions(method: method, passkey: method == "passkey" ? passkey : nil, legacy: legacyOnOurSide)
        }

        /// Our options as peripheral (responder): we display the passkey the Bumble central types, or compare.
        var peripheralOptions: PairingOptions {
            switch method {
            case "passkey": PairingOptions(ioCapability: .displayOnly, mitm: true, passkey: SecureInterop.passkey)
            case "numeric-comparison": PairingOptions(ioCapability: .displayYesNo, mitm: true)
            default: PairingOptions()
            }
        }
    }

    // MARK: - Our central, a Bumble accessory

    /// Our central pairs with an accessory that requires `pairingCase`'s method: the protected value is
    /// refused before (Insufficient Encryption), the result and the link's security are the method's,
    /// the prompts match the accessory's (the passkey it displays, the number it compares), Bumble reports
    /// PAIRED with the same method and our identity, the bond is stored, and the value reads after.
    static func ourCentralPairs(host: HCIHost, transport: String, air: String, _ pairingCase: Case) async throws {
        let name = "HIL-Sec-\(pairingCase.method.prefix(2))\(pairingCase.legacy ? "L" : "S")\(pairingCase.legacyOnOurSide ? "O" : "")"
        let accessory = try await startAccessory(transport: transport, name: name, pairingCase)
        try await stopping(accessory) {
            let (central, store, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())
            let events = await central.pairingEvents()
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let handle = try await protectedValueHandle(link)
            // Bumble checks encryption before authentication: an unencrypted link gets 0x0F either way.
            await expectRead(link, handle, refusedWith: .insufficientEncryption)

            let started = ContinuousClock.now
            let result = try await link.pair(try pairingCase.centralOptions())
            let pairing = ContinuousClock.now - started
            #expect(result.method.name == pairingCase.method, "\(result.method)")
            #expect(result.secureConnections == !pairingCase.legacy)
            #expect(result.keySize == 16)
            #expect(result.bonded)
            #expect(result.bond.peerAddress.description == accessory.address)
            #expect(result.bond.peerAddressType == .random)
            #expect(result.bond.authenticated == pairingCase.authenticated)
            #expect(result.bond.longTermKey != nil, "no key for reconnecting as central")
            let security = await link.security
            #expect(security.encrypted)
            #expect(security.authenticated == pairingCase.authenticated)
            #expect(security.secureConnections == !pairingCase.legacy)
            #expect(await link.lastPairing == result)

            let paired = try await line(accessory, "PAIRED ")
            #expect(paired == "PAIRED \(identity.address) \(pairingCase.bumbleMethod) \(pairingCase.legacy ? "legacy" : "sc") bonded")
            _ = try await line(accessory, "ENCRYPTED \(identity.address)")

            let seen = try await outcome(of: events)
            let prompts = seen.compactMap { event -> PairingPrompt? in if case .prompt(let prompt, _) = event { prompt } else { nil } }
            switch pairingCase.method {
            case "passkey":
                #expect(prompts == [.enteredPasskey(passkey)])
                #expect(try await line(accessory, "PASSKEY ") == "PASSKEY 123456")
            case "numeric-comparison":
                let number = try await line(accessory, "NUMBER ")
                guard case .compareNumber(let ours, let confirmed)? = prompts.first, prompts.count == 1 else {
                    Issue.record("expected one Numeric Comparison prompt, got \(prompts)")
                    break
                }
                #expect(confirmed)
                #expect(number == "NUMBER " + String(format: "%06d", ours), "both sides must compare the same number")
            default:
                #expect(prompts.isEmpty)
            }
            guard case .paired(let reported, let peer)? = seen.last else { throw TestFailure("no .paired event: \(seen)") }
            #expect(reported == result)
            #expect(peer == link.peerAddress)
            #expect(await central.bond(for: link.peerAddress, type: link.peerAddressType) == result.bond)
            #expect(await store.bonds().count == 1)

            #expect(try await link.gatt.read(handle: handle) == BumblePeer.protectedValue)
            try await link.disconnect()
            report(air, pairingCase.label, "pair \(ms(pairing))")
        }
    }

    /// A bond survives the accessory's restart with its key store: we reconnect and encrypt with the
    /// bond (LE Enable Encryption, no pairing), Bumble reports ENCRYPTED and no PAIRED, the value reads.
    static func bondSurvivesRestart(host: HCIHost, transport: String, air: String, _ pairingCase: Case) async throws {
        let directory = try TemporaryDirectory.make("hil-sec-interop")
        defer { TemporaryDirectory.remove(directory) }
        let keystore = directory.appendingPathComponent("accessory-keys.json").path
        let name = "HIL-Sec-Bond\(pairingCase.legacy ? "L" : "S")"
        let (central, _, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())

        let first = try await startAccessory(transport: transport, name: name, pairingCase, keystore: keystore)
        let paired: PairingResult = try await stopping(first) {
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let result = try await link.pair(try pairingCase.centralOptions())
            try #require(result.bonded)
            _ = try await line(first, "PAIRED \(identity.address)")
            try await link.disconnect()
            _ = try await line(first, "DISCONNECTED")
            // Bumble writes its key store when the pairing completes; the restart must find our keys there.
            #expect(await eventually(within: sideEffectBound) {
                (try? String(contentsOfFile: keystore, encoding: .utf8))?.contains(identity.address.description) == true
            }, "the accessory's key store holds no keys for \(identity.address)")
            return result
        }

        let second = try await startAccessory(transport: transport, name: name, pairingCase, keystore: keystore)
        try await stopping(second) {
            #expect(second.address == first.address)
            let connectStarted = ContinuousClock.now
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let connect = ContinuousClock.now - connectStarted
            let bond = try #require(await central.bond(for: link.peerAddress, type: link.peerAddressType),
                                    "no bond matches \(link.peerAddress) after the accessory's restart")
            #expect(bond == paired.bond)
            let started = ContinuousClock.now
            try await link.encrypt(with: bond)
            let encryption = ContinuousClock.now - started
            #expect(await link.lastPairing == nil, "the link paired again instead of using the bond")
            #expect(await link.security == bond.security)
            _ = try await line(second, "ENCRYPTED \(identity.address)")
            #expect(try await link.gatt.read(handle: try await protectedValueHandle(link)) == BumblePeer.protectedValue)
            let printed = await second.output.lines()
            #expect(!printed.contains { $0.hasPrefix("PAIRED") || $0.hasPrefix("KEY-MISSING") }, "accessory printed: \(printed)")
            try await link.disconnect()
            report(air, "\(pairingCase.label) bonded reconnect", "connect \(ms(connect)), encrypt with the bond \(ms(encryption))")
        }
    }

    /// The accessory restarted with an empty key store: encrypting with our bond fails with `lossStatus`
    /// (Encryption Change after the accessory's LTK Request Negative Reply), its description names the
    /// loss when the status is 0x06, the accessory reports KEY-MISSING, and a new pairing on the same link
    /// recovers (the new bond replaces the old one).
    static func lostBondIsNamed(host: HCIHost, transport: String, air: String, _ pairingCase: Case,
                                lossStatus: HCIStatus, lossDescription: [String]) async throws {
        let directory = try TemporaryDirectory.make("hil-sec-interop")
        defer { TemporaryDirectory.remove(directory) }
        let name = "HIL-Sec-Lost\(pairingCase.legacy ? "L" : "S")"
        let (central, store, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())

        let first = try await startAccessory(transport: transport, name: name, pairingCase,
                                             keystore: directory.appendingPathComponent("kept.json").path)
        let old: Bond = try await stopping(first) {
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let result = try await link.pair(try pairingCase.centralOptions())
            _ = try await line(first, "PAIRED \(identity.address)")
            try await link.disconnect()
            return result.bond
        }

        let empty = directory.appendingPathComponent("empty.json")
        try Data("{}\n".utf8).write(to: empty)
        let second = try await startAccessory(transport: transport, name: name, pairingCase, keystore: empty.path)
        try await stopping(second) {
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let bond = try #require(await central.bond(for: link.peerAddress, type: link.peerAddressType))
            let started = ContinuousClock.now
            var caught: SecurityError?
            do throws(SecurityError) {
                try await link.encrypt(with: bond)
            } catch {
                caught = error
            }
            let failure = ContinuousClock.now - started
            let error = try #require(caught, "encryption with a bond the accessory lost succeeded")
            guard case .encryptionFailed(let status, _) = error else { throw TestFailure("not an encryption failure: \(error)") }
            #expect(status == lossStatus, "\(error)")
            for part in lossDescription { #expect(error.description.contains(part), "\(error.description)") }
            _ = try await line(second, "KEY-MISSING \(identity.address)")
            #expect(await link.security.encrypted == false)
            let reason = await link.disconnectionReason
            #expect(reason == nil, "the link ended after the failed encryption: \(String(describing: reason))")

            // The same link pairs again; the new bond replaces the lost one.
            let result = try await link.pair(try pairingCase.centralOptions())
            _ = try await line(second, "PAIRED \(identity.address)")
            let bonds = await store.bonds()
            #expect(bonds == [result.bond])
            #expect(result.bond.longTermKey != old.longTermKey)
            #expect(try await link.gatt.read(handle: try await protectedValueHandle(link)) == BumblePeer.protectedValue)
            try await link.disconnect()
            report(air, "\(pairingCase.label) lost bond", "Encryption Change \(status) after \(ms(failure))")
        }
    }

    /// A wrong passkey: the accessory (responder) finds our confirm value wrong and sends Pairing Failed
    /// 0x04 Confirm Value Failed; the link stays unencrypted, nothing is stored, and the right passkey
    /// pairs on the next link.
    static func wrongPasskeyFails(host: HCIHost, transport: String, air: String, _ pairingCase: Case) async throws {
        let name = "HIL-Sec-Wrong\(pairingCase.legacy ? "L" : "S")"
        let accessory = try await startAccessory(transport: transport, name: name, pairingCase)
        try await stopping(accessory) {
            let (central, store, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())
            let events = await central.pairingEvents()
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let started = ContinuousClock.now
            let wrong = try pairingCase.centralOptions(passkey: wrongPasskey)
            var caught: SecurityError?
            do throws(SecurityError) {
                _ = try await link.pair(wrong)
            } catch {
                caught = error
            }
            let failure = ContinuousClock.now - started
            let error = try #require(caught, "pairing with a wrong passkey succeeded")
            guard case .pairingFailed(let reason, let byPeer, _) = error else { throw TestFailure("not a pairing failure: \(error)") }
            // The responder checks the initiator's confirm value first (it gets our random before sending
            // its own), so Bumble is the side that finds the mismatch.
            #expect(reason == .confirmValueFailed, "\(error)")
            #expect(byPeer, "\(error)")
            #expect(error.description.contains("the peer sent Pairing Failed, 0x04 Confirm Value Failed"), "\(error.description)")
            #expect(try await line(accessory, "PAIRING-FAILED") == "PAIRING-FAILED CONFIRM_VALUE_FAILED")
            let seen = try await outcome(of: events)
            guard case .failed(let reported, _)? = seen.last else { throw TestFailure("no .failed event: \(seen)") }
            #expect(reported.description == error.description)
            #expect(await link.security.encrypted == false)
            #expect(await link.lastPairing == nil)
            #expect(await store.bonds().isEmpty)
            let handle = try await protectedValueHandle(link)
            await expectRead(link, handle, refusedWith: .insufficientEncryption)

            // The right passkey then pairs. On a new link: Bumble 0.0.236 keeps a failed pairing's session
            // (marked completed) until the link ends, and a second Pairing Request on the same link goes to
            // that stale session (legacy: its LTK request is answered with no STK, Encryption Change 0x05;
            // SC: it never distributes its keys, our SMP timeout ends the wait after 30 s).
            try await link.disconnect()
            let again = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let result = try await again.pair(try pairingCase.centralOptions())
            #expect(result.method.name == "passkey")
            _ = try await line(accessory, "PAIRED \(identity.address) PASSKEY")
            #expect(await store.bonds() == [result.bond])
            #expect(try await again.gatt.read(handle: handle) == BumblePeer.protectedValue)
            try await again.disconnect()
            report(air, "\(pairingCase.label) wrong passkey", "Pairing Failed after \(ms(failure))")
        }
    }

    /// Legacy OOB: the accessory prints the TK it holds (Bumble's order: least significant octet first);
    /// our central takes it most significant first (PairingOptions.outOfBandKey), pairs by Out of Band
    /// (an authenticated key: the accessory's --mitm read passes), Bumble reports PAIRED OOB.
    static func ourCentralPairsByLegacyOOB(host: HCIHost, transport: String, air: String) async throws {
        let name = "HIL-Sec-OOB"
        let accessory = try await startAccessory(transport: transport, name: name, Case(method: "oob", legacy: true))
        try await stopping(accessory) {
            let tkLine = try await line(accessory, "OOB-TK ")
            let tk = try #require(hexOctets(String(tkLine.dropFirst(7))), "not a TK: \(tkLine)")
            try #require(tk.count == 16)
            let options = PairingOptions(ioCapability: .noInputNoOutput, mitm: true, outOfBandKey: tk.reversed())
            let (central, _, identity) = try await makeCentral(host: host, options: options)
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let started = ContinuousClock.now
            let result = try await link.pair(options)
            let pairing = ContinuousClock.now - started
            #expect(result.method == .outOfBand)
            #expect(!result.secureConnections)
            #expect(result.bond.authenticated)
            #expect(await link.security.authenticated)
            #expect(try await line(accessory, "PAIRED ") == "PAIRED \(identity.address) OOB legacy bonded")
            #expect(try await link.gatt.read(handle: try await protectedValueHandle(link)) == BumblePeer.protectedValue)
            try await link.disconnect()
            report(air, "oob legacy", "pair \(ms(pairing))")
        }
    }

    // MARK: - A Bumble central, our peripheral

    /// A Bumble central pairs with our peripheral: it is refused the protected value before (our ATT
    /// server's error), pairs with the method, reads the value; our pairingEvents() report the prompt
    /// (the passkey we display, the number we compare) and .paired; we keep a bond keyed on its identity.
    static func bumbleCentralPairsWithUs(host: HCIHost, transport: String, air: String, _ pairingCase: Case) async throws {
        let name = "HIL-Ours-\(pairingCase.method.prefix(2))\(pairingCase.legacy ? "L" : "S")"
        let level: ProtectionLevel = pairingCase.authenticated ? .authentication : .encryption
        let database = try GATTDatabase(services: [.gap(name: name), .gatt(), .protectedData(value: BumblePeer.protectedValue, level: level)])
        let peripheral = LEDevice(host: host, database: database)
        let store = InMemoryBondStore()
        let identity = try LocalIdentity.randomStatic()
        await peripheral.configureSecurity(pairing: pairingCase.peripheralOptions, bonds: store, identity: identity)
        let events = await peripheral.pairingEvents()
        try await peripheral.startAdvertising(Advertisement(name: name, interval: 32))

        let started = ContinuousClock.now
        let json = try await BumblePeer.runSecureCentral(transport: transport, name: name, method: pairingCase.method,
                                                         passkey: pairingCase.method == "passkey" ? "123456" : nil,
                                                         legacy: pairingCase.legacy, timeout: centralRunLimit, options: ["--read-first"] + centralAddress(name))
        let run = ContinuousClock.now - started
        #expect(json["exit_status"] as? Int == 0, "Bumble said: \(json)")
        #expect(json["error"] is NSNull, "Bumble said: \(json)")
        #expect(json["peer"] as? String == identity.address.description, "Bumble connected to \(json["peer"] ?? "nothing")")
        // Our ATT server checks authentication before encryption: an authenticated attribute on an
        // unencrypted link gets Insufficient Authentication (0x05).
        #expect(json["unencrypted_read"] as? String == (pairingCase.authenticated ? "INSUFFICIENT_AUTHENTICATION" : "INSUFFICIENT_ENCRYPTION"))
        #expect(json["paired"] as? Bool == true)
        #expect(json["method"] as? String == pairingCase.bumbleMethod)
        #expect(json["sc"] as? Bool == !pairingCase.legacy)
        #expect(json["bonded"] as? Bool == true)
        #expect(json["encrypted"] as? Bool == true)
        #expect(json["authenticated"] as? Bool == pairingCase.authenticated)
        #expect(json["value"] as? String == BumblePeer.protectedValue.map { String(format: "%02x", $0) }.joined())

        let seen = try await outcome(of: events)
        let prompts = seen.compactMap { event -> PairingPrompt? in if case .prompt(let prompt, _) = event { prompt } else { nil } }
        switch pairingCase.method {
        case "passkey":
            #expect(prompts == [.displayPasskey(passkey)])
            #expect(json["passkey"] as? String == "123456")
        case "numeric-comparison":
            guard case .compareNumber(let ours, let confirmed)? = prompts.first, prompts.count == 1 else {
                Issue.record("expected one Numeric Comparison prompt, got \(prompts)")
                break
            }
            #expect(confirmed)
            #expect(json["number"] as? String == String(format: "%06d", ours), "both sides must compare the same number")
        default:
            #expect(prompts.isEmpty)
        }
        guard case .paired(let result, _)? = seen.last else { throw TestFailure("no .paired event: \(seen)") }
        #expect(result.method.name == pairingCase.method, "\(result.method)")
        if pairingCase.method == "passkey" { #expect(result.method == .passkeyEntry(.responderDisplays)) }
        #expect(result.secureConnections == !pairingCase.legacy)
        #expect(result.bonded)
        // Bumble's central distributes its random static address (--address) as its identity.
        #expect(result.bond.peerAddress == BDAddress(staticAddress(for: "central " + name)))
        #expect(result.bond.peerAddressType == .random)
        #expect(result.bond.localLongTermKey != nil, "no key for answering its LTK requests")
        #expect(await store.bonds() == [result.bond])
        let pairingMs = (json["pairing_ms"] as? Double).map { String(format: "%.1f ms", $0) } ?? "?"
        report(air, "Bumble central \(pairingCase.label)", "Bumble's pairing_ms \(pairingMs), whole Bumble run \(ms(run))")
    }

    /// A Bumble central bonded with our peripheral reconnects and encrypts with its stored keys: our
    /// peripheral answers the LTK request from the bond (legacy: the one whose EDIV/Rand it distributed),
    /// no pairing happens, the value reads. With the bond gone from our store, its encryption fails with
    /// one of `lossErrors` (Bumble's error names) after our LTK Request Negative Reply.
    static func bumbleCentralReconnectsWithItsBond(host: HCIHost, transport: String, air: String, _ pairingCase: Case,
                                                   lossErrors: [String]) async throws {
        let directory = try TemporaryDirectory.make("hil-sec-interop")
        defer { TemporaryDirectory.remove(directory) }
        let keystore = directory.appendingPathComponent("central-keys.json").path
        let name = "HIL-Ours-B\(pairingCase.legacy ? "L" : "S")"
        let level: ProtectionLevel = pairingCase.authenticated ? .authentication : .encryption
        let database = try GATTDatabase(services: [.gap(name: name), .gatt(), .protectedData(value: BumblePeer.protectedValue, level: level)])
        let peripheral = LEDevice(host: host, database: database)
        let store = InMemoryBondStore()
        let identity = try LocalIdentity.randomStatic()
        await peripheral.configureSecurity(pairing: pairingCase.peripheralOptions, bonds: store, identity: identity)
        let events = await peripheral.pairingEvents()
        try await peripheral.startAdvertising(Advertisement(name: name, interval: 32))
        let passkeyText = pairingCase.method == "passkey" ? "123456" : nil

        let first = try await BumblePeer.runSecureCentral(transport: transport, name: name, method: pairingCase.method, passkey: passkeyText,
                                                          legacy: pairingCase.legacy, keystore: keystore, timeout: centralRunLimit, options: centralAddress(name))
        #expect(first["exit_status"] as? Int == 0, "Bumble said: \(first)")
        #expect(first["paired"] as? Bool == true)
        #expect(first["bonded"] as? Bool == true)
        guard case .paired(let paired, _)? = try await outcome(of: events).last else { throw TestFailure("our peripheral reported no pairing") }
        #expect(await store.bonds() == [paired.bond])

        let second = try await BumblePeer.runSecureCentral(transport: transport, name: name, method: pairingCase.method, passkey: passkeyText,
                                                           legacy: pairingCase.legacy, keystore: keystore, timeout: centralRunLimit, options: centralAddress(name))
        #expect(second["exit_status"] as? Int == 0, "Bumble said: \(second)")
        #expect(second["bonded_reconnect"] as? Bool == true, "Bumble said: \(second)")
        #expect(second["paired"] as? Bool == false)
        #expect(second["encrypted"] as? Bool == true)
        #expect(second["value"] as? String == BumblePeer.protectedValue.map { String(format: "%02x", $0) }.joined())

        // Our peripheral forgets the bond (same identity, an empty store): its LTK request gets our Negative Reply.
        await peripheral.configureSecurity(pairing: pairingCase.peripheralOptions, bonds: InMemoryBondStore(), identity: identity)
        let third = try await BumblePeer.runSecureCentral(transport: transport, name: name, method: pairingCase.method, passkey: passkeyText,
                                                          legacy: pairingCase.legacy, keystore: keystore, timeout: centralRunLimit, options: centralAddress(name))
        let error = third["error"] as? String ?? ""
        #expect(third["exit_status"] as? Int == 1)
        #expect(third["bonded_reconnect"] as? Bool == true)
        #expect(error.hasPrefix("encryption with the stored keys failed") && lossErrors.contains { error.contains($0) }, "Bumble said: \(third)")
        // The reconnects paired nothing on our side: nothing more arrives on the stream within 100 ms. The third
        // run has ended, so any event of ours about it was sent already; the 100 ms is for its delivery.
        let drained = Task {
            var extra: [PairingEvent] = []
            for await event in events { extra.append(event) }
            return extra
        }
        try await Task.sleep(for: .milliseconds(100))
        drained.cancel()
        #expect(await drained.value.isEmpty, "our peripheral reported pairing events on the reconnects")
        let encryptMs = (second["encrypt_ms"] as? Double).map { String(format: "%.1f ms", $0) } ?? "?"
        report(air, "Bumble central \(pairingCase.label) bonded reconnect", "Bumble's encrypt_ms \(encryptMs)")
    }

    /// A Bumble central types a wrong passkey: our peripheral (responder) finds its confirm value wrong
    /// and sends Pairing Failed 0x04 Confirm Value Failed (byPeer false); after the Repeated Attempts wait
    /// (1 s after a first failure, Vol 3 Part H §2.3.6) the right passkey pairs.
    static func bumbleCentralWithAWrongPasskeyIsRefused(host: HCIHost, transport: String, air: String, _ pairingCase: Case) async throws {
        let name = "HIL-Ours-W\(pairingCase.legacy ? "L" : "S")"
        let database = try GATTDatabase(services: [.gap(name: name), .gatt(), .protectedData(value: BumblePeer.protectedValue, level: .authentication)])
        let peripheral = LEDevice(host: host, database: database)
        let store = InMemoryBondStore()
        await peripheral.configureSecurity(pairing: pairingCase.peripheralOptions, bonds: store, identity: try LocalIdentity.randomStatic())
        let events = await peripheral.pairingEvents()
        try await peripheral.startAdvertising(Advertisement(name: name, interval: 32))

        let wrong = try await BumblePeer.runSecureCentral(transport: transport, name: name, method: "passkey", passkey: String(wrongPasskey),
                                                          legacy: pairingCase.legacy, timeout: centralRunLimit, options: centralAddress(name))
        #expect(wrong["exit_status"] as? Int == 1)
        #expect(wrong["error"] as? String == "pairing failed: smp: CONFIRM_VALUE_FAILED (0x04)", "Bumble said: \(wrong)")
        #expect(wrong["method"] as? String == "PASSKEY")
        let seen = try await outcome(of: events)
        guard case .failed(let error, let peer)? = seen.last else { throw TestFailure("our peripheral reported no failure: \(seen)") }
        guard case .pairingFailed(let reason, let byPeer, _) = error else { throw TestFailure("not a pairing failure: \(error)") }
        #expect(reason == .confirmValueFailed, "\(error)")
        #expect(!byPeer, "\(error)")
        #expect(peer == BDAddress(staticAddress(for: "central " + name)))
        #expect(await store.bonds().isEmpty)

        // Past the Repeated Attempts wait after one failure (1 s, Vol 3 Part H §2.3.6), which our peripheral counts
        // from the failure it recorded before reporting it: 1 s from here is past it already; the 100 ms more
        // keeps the next Pairing Request clear of the boundary.
        try await Task.sleep(for: .milliseconds(1100))
        let right = try await BumblePeer.runSecureCentral(transport: transport, name: name, method: "passkey", passkey: "123456",
                                                          legacy: pairingCase.legacy, timeout: centralRunLimit, options: centralAddress(name))
        #expect(right["exit_status"] as? Int == 0, "Bumble said: \(right)")
        #expect(right["paired"] as? Bool == true)
        guard case .paired(let result, _)? = try await outcome(of: events).last else { throw TestFailure("no pairing after the wait") }
        #expect(await store.bonds() == [result.bond])
    }

    /// Legacy OOB with our peripheral: we hold a TK (most significant first), the Bumble central gets
    /// it in its own order (--oob-tk, least significant first); both pair by Out of Band.
    static func bumbleCentralPairsWithUsByLegacyOOB(host: HCIHost, transport: String, air: String) async throws {
        let name = "HIL-Ours-OOB"
        let database = try GATTDatabase(services: [.gap(name: name), .gatt(), .protectedData(value: BumblePeer.protectedValue, level: .authentication)])
        let peripheral = LEDevice(host: host, database: database)
        let store = InMemoryBondStore()
        let tk: [UInt8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0xFE, 0xDC, 0xBA, 0x98, 0x76, 0x54, 0x32, 0x10]
        await peripheral.configureSecurity(pairing: PairingOptions(ioCapability: .noInputNoOutput, mitm: true, outOfBandKey: tk),
                                           bonds: store, identity: try LocalIdentity.randomStatic())
        let events = await peripheral.pairingEvents()
        try await peripheral.startAdvertising(Advertisement(name: name, interval: 32))
        let bumbleTK = tk.reversed().map { String(format: "%02x", $0) }.joined()
        let json = try await BumblePeer.runSecureCentral(transport: transport, name: name, method: "oob", legacy: true, timeout: centralRunLimit,
                                                         options: ["--oob-tk", bumbleTK] + centralAddress(name))
        #expect(json["exit_status"] as? Int == 0, "Bumble said: \(json)")
        #expect(json["method"] as? String == "OOB")
        #expect(json["sc"] as? Bool == false)
        #expect(json["authenticated"] as? Bool == true)
        #expect(json["value"] as? String == BumblePeer.protectedValue.map { String(format: "%02x", $0) }.joined())
        guard case .paired(let result, _)? = try await outcome(of: events).last else { throw TestFailure("our peripheral reported no pairing") }
        #expect(result.method == .outOfBand)
        #expect(await store.bonds() == [result.bond])
        let pairingMs = (json["pairing_ms"] as? Double).map { String(format: "%.1f ms", $0) } ?? "?"
        report(air, "Bumble central oob legacy", "Bumble's pairing_ms \(pairingMs)")
    }

    // MARK: - Security Request

    /// An accessory that sends a Security Request as soon as we connect: our central, with pairing
    /// options, answers by pairing; the request's flags are kept on the link.
    static func securityRequestIsAnsweredByPairing(host: HCIHost, transport: String, air: String) async throws {
        let pairingCase = Case.passkeySC
        let name = "HIL-Sec-Req"
        let accessory = try await startAccessory(transport: transport, name: name, pairingCase, options: ["--security-request"])
        try await stopping(accessory) {
            let (central, store, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())
            let events = await central.pairingEvents()
            let started = ContinuousClock.now
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let security = try await link.waitForEncryption(timeout: pairingBound)
            let encrypted = ContinuousClock.now - started
            #expect(security.encrypted)
            #expect(security.authenticated)
            #expect(security.secureConnections)
            let requested = try #require(await link.securityRequested, "the Security Request was not seen")
            #expect(requested.contains([.bonding, .mitm, .secureConnections]), "\(requested)")
            let seen = try await outcome(of: events)
            guard case .paired(let result, _)? = seen.last else { throw TestFailure("the answering pairing did not succeed: \(seen)") }
            #expect(result.method == .passkeyEntry(.responderDisplays))
            #expect(await link.lastPairing == result)
            #expect(await store.bonds() == [result.bond])
            _ = try await line(accessory, "PAIRED \(identity.address) PASSKEY sc bonded")
            #expect(try await link.gatt.read(handle: try await protectedValueHandle(link)) == BumblePeer.protectedValue)
            try await link.disconnect()
            report(air, "Security Request answered by pairing", "connect to encrypted \(ms(encrypted))")
        }
    }

    /// A bonded reconnect to an accessory that sends a Security Request: our central answers by
    /// encrypting with the bond, without pairing.
    static func securityRequestIsAnsweredWithTheBond(host: HCIHost, transport: String, air: String) async throws {
        let pairingCase = Case.passkeySC
        let directory = try TemporaryDirectory.make("hil-sec-interop")
        defer { TemporaryDirectory.remove(directory) }
        let keystore = directory.appendingPathComponent("accessory-keys.json").path
        let name = "HIL-Sec-ReqB"
        let (central, _, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())
        let first = try await startAccessory(transport: transport, name: name, pairingCase, keystore: keystore, options: ["--security-request"])
        try await stopping(first) {
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            _ = try await link.waitForEncryption(timeout: pairingBound)
            _ = try await line(first, "PAIRED \(identity.address)")
            #expect(await eventually(within: sideEffectBound) { await link.lastPairing != nil })
            try await link.disconnect()
        }
        let second = try await startAccessory(transport: transport, name: name, pairingCase, keystore: keystore, options: ["--security-request"])
        try await stopping(second) {
            let started = ContinuousClock.now
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let security = try await link.waitForEncryption(timeout: pairingBound)
            let encrypted = ContinuousClock.now - started
            #expect(security.authenticated)
            #expect(await link.securityRequested != nil)
            _ = try await line(second, "ENCRYPTED \(identity.address)")
            #expect(await link.lastPairing == nil, "the link paired again instead of using the bond")
            #expect(try await link.gatt.read(handle: try await protectedValueHandle(link)) == BumblePeer.protectedValue)
            let printed = await second.output.lines()
            #expect(!printed.contains { $0.hasPrefix("PAIRED") }, "accessory printed: \(printed)")
            try await link.disconnect()
            report(air, "Security Request answered with the bond", "connect to encrypted \(ms(encrypted))")
        }
    }

    /// A central without pairing options answers a Security Request with Pairing Failed 0x05 Pairing Not
    /// Supported (Vol 3 Part H §2.4.6), and the link stays up, unencrypted.
    static func securityRequestWithoutOptionsIsRefused(host: HCIHost, transport: String, air: String) async throws {
        let name = "HIL-Sec-ReqN"
        let accessory = try await startAccessory(transport: transport, name: name, .justWorksSC, options: ["--security-request"])
        try await stopping(accessory) {
            let central = LEDevice(host: host)
            await central.configureSecurity(pairing: nil, bonds: InMemoryBondStore(), identity: try LocalIdentity.randomStatic())
            let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            #expect(try await line(accessory, "PAIRING-FAILED") == "PAIRING-FAILED PAIRING_NOT_SUPPORTED")
            #expect(await link.securityRequested != nil)
            #expect(await link.security.encrypted == false)
            #expect(await link.isConnected)
            await expectRead(link, try await protectedValueHandle(link), refusedWith: .insufficientEncryption)
            try await link.disconnect()
        }
    }

    /// Our central pairs as soon as an accessory's Security Request (sent on connection) has come, while
    /// our answer to that request (the device has pairing options) is starting the same pairing: pair()
    /// joins it instead of failing busy or sending a second Pairing Request. Done `rounds` times (the
    /// accessory keeps no keys, so every connection pairs), as the order in which the two starts meet varies.
    static func pairJoinsOurAnswerToASecurityRequest(host: HCIHost, transport: String, air: String, rounds: Int) async throws {
        let pairingCase = Case.passkeySC
        let name = "HIL-Sec-ReqP"
        let accessory = try await startAccessory(transport: transport, name: name, pairingCase, options: ["--security-request", "--no-bonding"])
        try await stopping(accessory) {
            let (central, _, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())
            var pairings: [Duration] = []
            for round in 0..<rounds {
                let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
                let options = try pairingCase.centralOptions()
                try await untilSecurityRequested(link)
                let started = ContinuousClock.now
                let result = try await link.pair(options)
                pairings.append(ContinuousClock.now - started)
                #expect(result.method == .passkeyEntry(.responderDisplays))
                #expect(!result.bonded)
                #expect(await link.security.encrypted)
                _ = try #require(await accessory.output.line(withPrefix: "PAIRED \(identity.address)", within: pairingBound, skipping: round),
                                 "round \(round): the accessory printed no PAIRED")
                #expect(try await link.gatt.read(handle: try await protectedValueHandle(link)) == BumblePeer.protectedValue)
                try await link.disconnect()
            }
            let printed = await accessory.output.lines()
            #expect(printed.filter { $0.hasPrefix("PAIRED") }.count == rounds, "one pairing per connection: \(printed)")
            #expect(!printed.contains { $0.hasPrefix("PAIRING-FAILED") }, "\(printed)")
            report(air, "pair() right after connecting to a Security Requester", pairings.map(ms).joined(separator: ", "))
        }
    }

    /// Our central encrypts with its bond as soon as the accessory's Security Request (sent on connection)
    /// has come, while our answer to that request is encrypting with the same bond: encrypt(with:) waits
    /// for it instead of failing busy. `rounds` reconnects.
    static func encryptJoinsOurAnswerToASecurityRequest(host: HCIHost, transport: String, air: String, rounds: Int) async throws {
        let pairingCase = Case.passkeySC
        let name = "HIL-Sec-ReqE"
        let (central, _, identity) = try await makeCentral(host: host, options: try pairingCase.centralOptions())
        let accessory = try await startAccessory(transport: transport, name: name, pairingCase, options: ["--security-request"])
        try await stopping(accessory) {
            let first = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
            let paired = try await first.pair(try pairingCase.centralOptions())
            try #require(paired.bonded)
            // Bumble stores the keys in a task that a disconnection cancels: a link taken down as soon as
            // pair() returns (our keys sent, Number Of Completed Packets) can end before it has stored them
            // (seen on Rootcanal: no PAIRED, then KEY-MISSING on the reconnect). So wait for its PAIRED.
            _ = try await line(accessory, "PAIRED \(identity.address)")
            try await first.disconnect()
            var encryptions: [Duration] = []
            for round in 0..<rounds {
                let link = try await central.connect(matching: ScanFilter(name: name), scanTimeout: scanLimit)
                let bond = try #require(await central.bond(for: link.peerAddress, type: link.peerAddressType))
                try await untilSecurityRequested(link)
                let started = ContinuousClock.now
                do throws(SecurityError) {
                    try await link.encrypt(with: bond)
                } catch {
                    Issue.record("round \(round): encrypt(with:) failed: \(error)")
                }
                encryptions.append(ContinuousClock.now - started)
                #expect(await link.security == bond.security)
                #expect(await link.lastPairing == nil)
                #expect(try await link.gatt.read(handle: try await protectedValueHandle(link)) == BumblePeer.protectedValue)
                try await link.disconnect()
            }
            let printed = await accessory.output.lines()
            #expect(printed.filter { $0.hasPrefix("PAIRED") }.count == 1, "the reconnects paired: \(printed)")
            #expect(printed.filter { $0.hasPrefix("ENCRYPTED \(identity.address)") }.count >= 1 + rounds, "\(printed)")
            #expect(!printed.contains { $0.hasPrefix("KEY-MISSING") || $0.hasPrefix("ENCRYPTION-FAILED") }, "\(printed)")
            report(air, "encrypt(with:) right after reconnecting to a Security Requester", encryptions.map(ms).joined(separator: ", "))
        }
    }

    /// Returns as soon as the link has seen the peer's Security Request (our answer to it is then
    /// starting), polling without sleeping so that the caller acts while that answer is under way. The
    /// accessory sends it on connection, so it comes within a connection event or two; 5 s is room for load.
    static func untilSecurityRequested(_ link: LEConnection) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while await link.securityRequested == nil {
            guard ContinuousClock.now < deadline else { throw TestFailure("no Security Request within 5 s of connecting") }
            await Task.yield()
        }
    }

    // MARK: - Helpers

    static func startAccessory(transport: String, name: String, _ pairingCase: Case, keystore: String? = nil,
                               options: [String] = []) async throws -> BumblePeer.Accessory {
        try await BumblePeer.startSecureAccessory(transport: transport, name: name, address: staticAddress(for: name),
                                                  method: pairingCase.method,
                                                  passkey: pairingCase.method == "passkey" ? "123456" : nil,
                                                  legacy: pairingCase.accessoryLegacy, keystore: keystore,
                                                  mitm: pairingCase.authenticated, options: options)
    }

    /// A random static address that is the same for the same `label` (an accessory keeps it across its
    /// restarts) and unlike the fixed ones other Bumble peers use (F2:F1:F2:F3:F4:F5, D0:D1:D2:D3:D4:D5):
    /// two advertisers or initiators with one address on the same air make connections fail (0x3E).
    static func staticAddress(for label: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 // FNV-1a
        for octet in label.utf8 { hash = (hash ^ UInt64(octet)) &* 0x0000_0100_0000_01B3 }
        var octets = (0..<6).map { UInt8(truncatingIfNeeded: hash >> (8 * $0)) }
        octets[0] |= 0xC0
        return octets.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The Bumble central's --address option for a test whose advertiser is `name`.
    static func centralAddress(_ name: String) -> [String] { ["--address", staticAddress(for: "central " + name)] }

    /// Runs `body`, then stops the accessory whatever happened (printing what it said when `body` threw).
    static func stopping<T>(_ accessory: BumblePeer.Accessory, _ body: () async throws -> T) async throws -> T {
        do {
            let result = try await body()
            await accessory.stop()
            return result
        } catch {
            print("[security-interop] the accessory printed: \(await accessory.output.lines())")
            await accessory.stop()
            throw error
        }
    }

    /// A central with `options`, an in-memory bond store and a random static identity (btvirt gives each
    /// client a different public address, so only a random static one stays the same across links).
    static func makeCentral(host: HCIHost, options: PairingOptions?) async throws -> (LEDevice, InMemoryBondStore, LocalIdentity) {
        let central = LEDevice(host: host)
        let store = InMemoryBondStore()
        let identity = try LocalIdentity.randomStatic()
        await central.configureSecurity(pairing: options, bonds: store, identity: identity)
        return (central, store, identity)
    }

    /// The accessory's first line starting with `prefix` within 10 s (`pairingBound`: a line follows a
    /// pairing, an encryption or a connection), or an error with what it printed.
    static func line(_ accessory: BumblePeer.Accessory, _ prefix: String) async throws -> String {
        if let found = await accessory.output.line(withPrefix: prefix, within: pairingBound) { return found }
        throw TestFailure("the accessory printed no \"\(prefix)…\" line within 10 s: \(await accessory.output.lines())")
    }

    static func protectedValueHandle(_ link: LEConnection) async throws -> UInt16 {
        let tree = try await link.gatt.discoverAll()
        let characteristic = try #require(tree.characteristic(.protectedData, in: .protectedDataService), "no protected characteristic in \(tree)")
        return characteristic.valueHandle
    }

    static func expectRead(_ link: LEConnection, _ handle: UInt16, refusedWith expected: ATTErrorCode,
                           sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            let value = try await link.gatt.read(handle: handle)
            Issue.record("the protected value was read (\(value)) where \(expected) was due", sourceLocation: sourceLocation)
        } catch {
            guard case .errorResponse(_, _, let code) = error else {
                Issue.record("expected an Error Response \(expected), got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(code == expected, sourceLocation: sourceLocation)
        }
    }

    /// The pairing events up to the first .paired or .failed (within 10 s, `pairingBound`: a whole pairing).
    static func outcome(of events: AsyncStream<PairingEvent>) async throws -> [PairingEvent] {
        try await withThrowingTaskGroup(of: [PairingEvent]?.self) { group in
            group.addTask {
                var seen: [PairingEvent] = []
                for await event in events {
                    seen.append(event)
                    switch event {
                    case .paired, .failed: return seen
                    case .prompt: continue
                    }
                }
                return seen
            }
            group.addTask {
                try await Task.sleep(for: pairingBound)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let seen = first else {
                throw TestFailure("no pairing outcome event within 10 s")
            }
            return seen
        }
    }

    /// "0a1b…" as octets, or nil when it is not hex.
    static func hexOctets(_ text: String) -> [UInt8]? {
        let characters = Array(text)
        guard characters.count.isMultiple(of: 2) else { return nil }
        var octets: [UInt8] = []
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let octet = UInt8(String(characters[index...index + 1]), radix: 16) else { return nil }
            octets.append(octet)
        }
        return octets
    }

    static func ms(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }

    static func report(_ air: String, _ what: String, _ measured: String) {
        print("[security-interop] \(air) \(what): \(measured)")
    }
}
