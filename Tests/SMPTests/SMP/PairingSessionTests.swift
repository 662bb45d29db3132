@testable import SMP
import Testing

/// An initiator and a responder `PairingSession` paired with each other in memory, for every method:
/// both must finish with the same method, key size and keys, the link key as §2.4.4 wants it (EDIV and
/// Rand zero for an STK or a Secure Connections LTK), and each side's identity in the other's bond.
@Suite("PairingSession: two sessions pair with each other")
struct PairingSessionTests {
    /// Runs `link` and returns both results, recording the failure if there was one.
    static func finish(_ link: PairingLink) throws -> (initiator: PairingResult, responder: PairingResult) {
        if let failure = try link.run() {
            Issue.record("the \(failure.side) failed the pairing: \(failure.abort.error)")
        }
        return (try #require(link.results[.initiator]), try #require(link.results[.responder]))
    }

    /// Whether `key` (HCI order) is masked to `size` octets: its 16 − size most significant octets are zero,
    /// and something remains.
    static func isMasked(_ key: [UInt8], to size: UInt8) -> Bool {
        let mostSignificantFirst = Array(key.reversed())
        return key.count == 16 && mostSignificantFirst.prefix(16 - Int(size)).allSatisfy { $0 == 0 }
            && mostSignificantFirst.dropFirst(16 - Int(size)).contains { $0 != 0 }
    }

    /// What both sides must agree on after any successful pairing.
    static func checkAgreement(_ link: PairingLink, method: PairingMethod, secureConnections: Bool, keySize: UInt8 = 16,
                               authenticated: Bool) throws {
        let (initiator, responder) = try finish(link)
        for result in [initiator, responder] {
            #expect(result.method == method)
            #expect(result.secureConnections == secureConnections)
            #expect(result.keySize == keySize)
            #expect(result.bonded)
            #expect(result.bond.authenticated == authenticated)
            #expect(result.bond.keySize == keySize)
        }
        // The initiator encrypts with the key the responder's controller is given, with EDIV and Rand zero.
        let linkKey = try #require(link.encryptWith)
        #expect(link.answerLTKRequestWith == linkKey)
        #expect(linkKey.ediv == 0 && linkKey.random == 0)
        #expect(isMasked(linkKey.key, to: keySize), "\(linkKey.key)")
        #expect(initiator.linkKey == linkKey && responder.linkKey == linkKey)
        // Each side keeps, for each role, the key the other keeps for the opposite role.
        let ltk = try #require(initiator.bond.longTermKey)
        let localLTK = try #require(initiator.bond.localLongTermKey)
        #expect(responder.bond.localLongTermKey == ltk)
        #expect(responder.bond.longTermKey == localLTK)
        if secureConnections {
            #expect(ltk == linkKey && localLTK == linkKey)
        } else {
            // Legacy: each side distributed a fresh LTK of the negotiated size, not the STK.
            #expect(ltk != linkKey && localLTK != linkKey && ltk != localLTK)
            #expect(isMasked(ltk.key, to: keySize) && isMasked(localLTK.key, to: keySize))
        }
        // Identity Information and Identity Address Information reached the other side.
        #expect(initiator.bond.peerAddress == PairingLink.responderIdentity.address)
        #expect(initiator.bond.peerAddressType == .public)
        #expect(initiator.bond.peerIdentityResolvingKey == PairingLink.responderIdentity.identityResolvingKey)
        #expect(responder.bond.peerAddress == PairingLink.initiatorIdentity.address)
        #expect(responder.bond.peerAddressType == .random)
        #expect(responder.bond.peerIdentityResolvingKey == PairingLink.initiatorIdentity.identityResolvingKey)
    }

    @Test("Just Works", arguments: [true, false])
    func justWorks(secureConnections: Bool) throws {
        let options = PairingOptions(ioCapability: .noInputNoOutput, secureConnections: secureConnections)
        let link = PairingLink(initiator: options, responder: options)
        try Self.checkAgreement(link, method: .justWorks, secureConnections: secureConnections, authenticated: false)
        #expect(link.prompts.values.joined().isEmpty)
    }

    @Test("Passkey Entry with the same passkey on both sides", arguments: [
        // Table 2.8: initiator KeyboardOnly, responder DisplayOnly: the responder displays.
        (IOCapability.keyboardOnly, IOCapability.displayOnly, PairingMethod.PasskeyRoles.responderDisplays, true),
        (.keyboardOnly, .displayOnly, .responderDisplays, false),
        (.displayOnly, .keyboardOnly, .initiatorDisplays, true),
        (.keyboardOnly, .keyboardOnly, .bothInput, true),
        (.keyboardOnly, .keyboardOnly, .bothInput, false),
    ])
    func passkeyEntry(initiatorIO: IOCapability, responderIO: IOCapability, roles: PairingMethod.PasskeyRoles,
                      secureConnections: Bool) throws {
        let passkey: UInt32 = 902_714
        let link = PairingLink(
            initiator: PairingOptions(ioCapability: initiatorIO, mitm: true, secureConnections: secureConnections, passkey: passkey),
            responder: PairingOptions(ioCapability: responderIO, mitm: true, secureConnections: secureConnections, passkey: passkey))
        try Self.checkAgreement(link, method: .passkeyEntry(roles), secureConnections: secureConnections, authenticated: true)
        let shown: (PairingSide) -> PairingPrompt = { side in
            roles != .bothInput && (roles == .initiatorDisplays) == (side == .initiator) ? .displayPasskey(passkey) : .enteredPasskey(passkey)
        }
        #expect(link.prompts[.initiator] == [shown(.initiator)])
        #expect(link.prompts[.responder] == [shown(.responder)])
        // §2.3.5.6.3: Secure Connections commits to the passkey bit by bit, in 20 rounds of Confirm and Random.
        let rounds = secureConnections ? 20 : 1
        for side in [PairingSide.initiator, .responder] {
            #expect(link.count(.pairingConfirm, from: side) == rounds)
            #expect(link.count(.pairingRandom, from: side) == rounds)
        }
    }

    @Test("Numeric Comparison: both sides show the same six-digit number")
    func numericComparison() throws {
        let options = PairingOptions(ioCapability: .displayYesNo, mitm: true, secureConnections: true)
        let link = PairingLink(initiator: options, responder: options)
        try Self.checkAgreement(link, method: .numericComparison, secureConnections: true, authenticated: true)
        let shown = try #require(link.prompts[.initiator]?.first)
        guard case .compareNumber(let number, confirmed: true) = shown else {
            Issue.record("the initiator was prompted with \(shown)")
            return
        }
        #expect(number < 1_000_000)
        #expect(link.prompts[.initiator] == [shown])
        #expect(link.prompts[.responder] == [shown])
    }

    @Test("Legacy OOB with the same 16-octet key on both sides")
    func legacyOutOfBand() throws {
        let key: [UInt8] = [0x3A, 0x11, 0x0F, 0x9C, 0x52, 0x7B, 0xE0, 0x04, 0x6D, 0x28, 0xC3, 0x95, 0x41, 0xB7, 0x1E, 0x88]
        let options = PairingOptions(ioCapability: .noInputNoOutput, secureConnections: false, outOfBandKey: key)
        let link = PairingLink(initiator: options, responder: options)
        try Self.checkAgreement(link, method: .outOfBand, secureConnections: false, authenticated: true)
    }

    @Test("The key size is the smaller of the two maxima, and every key is masked to it (§2.3.4)", arguments: [
        (UInt8(10), UInt8(16), true), (16, 12, true), (10, 16, false), (16, 7, false),
    ])
    func keySize(initiatorMax: UInt8, responderMax: UInt8, secureConnections: Bool) throws {
        let link = PairingLink(
            initiator: PairingOptions(secureConnections: secureConnections, maxKeySize: initiatorMax),
            responder: PairingOptions(secureConnections: secureConnections, maxKeySize: responderMax))
        try Self.checkAgreement(link, method: .justWorks, secureConnections: secureConnections,
                                keySize: min(initiatorMax, responderMax), authenticated: false)
    }
}
