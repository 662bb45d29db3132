@testable import SMP
import TestSupport
import Testing

/// Pairings that must fail, and the Pairing Failed reason each sends (Core v5.4 Vol 3 Part H §3.5.5,
/// Table 3.7); the other side then reports the failure as the peer's, with the reason's name.
@Suite("PairingSession: failed pairings")
struct PairingSessionFailureTests {
    /// Runs `link`, which must fail on `side` with `reason`; the other side must report it as the peer's.
    @discardableResult
    static func expectFailure(_ link: PairingLink, on side: PairingSide, _ reason: PairingFailureReason,
                              name: String) throws -> PairingFailure {
        let failure = try #require(try link.run(), "the pairing succeeded")
        #expect(failure.side == side)
        #expect(failure.abort.send == reason)
        let ours = try #require(PairingFailure.parts(failure.abort))
        #expect(ours.reason == reason && !ours.byPeer)
        let theirs = try #require(PairingFailure.parts(failure.peerAbort))
        #expect(theirs.reason == reason && theirs.byPeer)
        #expect(failure.peerAbort?.send == nil, "a Pairing Failed is not answered")
        #expect(failure.peerAbort?.error.description.contains(name) == true, "\(failure.peerAbort?.error.description ?? "")")
        #expect(link.results.isEmpty)
        #expect(link.encryptWith == nil)
        return failure
    }

    @Test("Different passkeys: Confirm Value Failed", arguments: [true, false])
    func differentPasskeys(secureConnections: Bool) throws {
        // The passkeys differ in their lowest bit, so Secure Connections' first round already differs.
        let link = PairingLink(
            initiator: PairingOptions(ioCapability: .keyboardOnly, mitm: true, secureConnections: secureConnections, passkey: 123_456),
            responder: PairingOptions(ioCapability: .displayOnly, mitm: true, secureConnections: secureConnections, passkey: 123_457))
        // The responder checks the initiator's commitment first (Mconfirm, or Ca1, on Mrand / Na1).
        try Self.expectFailure(link, on: .responder, .confirmValueFailed, name: "Confirm Value Failed")
    }

    @Test("Different legacy OOB keys: Confirm Value Failed")
    func differentOutOfBandKeys() throws {
        let link = PairingLink(
            initiator: PairingOptions(secureConnections: false, outOfBandKey: [UInt8](repeating: 0x11, count: 16)),
            responder: PairingOptions(secureConnections: false, outOfBandKey: [UInt8](repeating: 0x22, count: 16)))
        try Self.expectFailure(link, on: .responder, .confirmValueFailed, name: "Confirm Value Failed")
    }

    @Test("Numeric Comparison rejected: Numeric Comparison Failed", arguments: [PairingSide.initiator, .responder])
    func comparisonRejected(by side: PairingSide) throws {
        let accepts = PairingOptions(ioCapability: .displayYesNo, mitm: true)
        let rejects = PairingOptions(ioCapability: .displayYesNo, mitm: true, confirmsNumericComparison: false)
        let link = PairingLink(initiator: side == .initiator ? rejects : accepts, responder: side == .responder ? rejects : accepts)
        try Self.expectFailure(link, on: side, .numericComparisonFailed, name: "Numeric Comparison Failed")
    }

    @Test("MITM required where the IO capabilities allow only Just Works: Authentication Requirements",
          arguments: [PairingSide.initiator, .responder])
    func mitmWithoutIO(requiredBy side: PairingSide) throws {
        let requires = PairingOptions(ioCapability: .noInputNoOutput, mitm: true)
        let plain = PairingOptions(ioCapability: .displayYesNo)
        let link = PairingLink(initiator: side == .initiator ? requires : plain, responder: side == .responder ? requires : plain)
        try Self.expectFailure(link, on: side, .authenticationRequirements, name: "Authentication Requirements")
    }

    @Test("Secure Connections Only against a legacy peer: Authentication Requirements", arguments: [PairingSide.initiator, .responder])
    func secureConnectionsOnly(side: PairingSide) throws {
        let strict = PairingOptions(secureConnections: true, secureConnectionsOnly: true)
        let legacy = PairingOptions(secureConnections: false)
        let link = PairingLink(initiator: side == .initiator ? strict : legacy, responder: side == .responder ? strict : legacy)
        try Self.expectFailure(link, on: side, .authenticationRequirements, name: "Authentication Requirements")
    }

    @Test("A key size below our minimum: Encryption Key Size", arguments: [PairingSide.initiator, .responder])
    func keyTooSmall(side: PairingSide) throws {
        let strict = PairingOptions(maxKeySize: 16, minKeySize: 16)
        let small = PairingOptions(maxKeySize: 10)
        let link = PairingLink(initiator: side == .initiator ? strict : small, responder: side == .responder ? strict : small)
        try Self.expectFailure(link, on: side, .encryptionKeySize, name: "Encryption Key Size")
    }

    @Test("A device that refuses to pair: the initiator reports the peer's Pairing Not Supported")
    func peerRefuses() throws {
        let link = PairingLink(initiator: PairingOptions(), responder: PairingOptions(rejectsWith: .pairingNotSupported))
        try Self.expectFailure(link, on: .responder, .pairingNotSupported, name: "Pairing Not Supported")
        #expect(link.transcript.map(\.pdu.code) == [.pairingRequest, .pairingFailed])
    }

    @Test("Pairing Random before any Pairing Request: Unspecified Reason naming both")
    func outOfOrder() throws {
        let responder = PairingLink(initiator: PairingOptions(), responder: PairingOptions()).responder
        let abort = #expect(throws: PairingAbort.self) { try responder.receive(.pairingRandom(Array(repeating: 7, count: 16))) }
        #expect(abort?.send == .unspecifiedReason)
        let description = abort?.error.description ?? ""
        #expect(description.contains("Pairing Random") && description.contains("Pairing Request"), "\(description)")
    }

    /// A Secure Connections pairing up to the initiator's Pairing Public Key: the PDU, not yet delivered.
    static func initiatorPublicKey(_ link: PairingLink) throws -> (x: [UInt8], y: [UInt8]) {
        let response = try link.responder.receive(link.initiator.start())
        let sent = try link.initiator.receive(try #require(response.send.first)).send
        guard case .pairingPublicKey(let x, let y) = try #require(sent.first) else {
            throw TestFailure("the initiator sent \(sent) after the Pairing Response")
        }
        return (x, y)
    }

    @Test("A public key not on P-256: DHKey Check Failed")
    func invalidPublicKey() throws {
        let link = PairingLink(initiator: PairingOptions(), responder: PairingOptions())
        var (x, y) = try Self.initiatorPublicKey(link)
        // y² = x³ − 3x + b holds for (x, y); with y's lowest bit flipped it cannot (the other root is p − y).
        y[0] ^= 0x01
        let abort = #expect(throws: PairingAbort.self) { try link.responder.receive(.pairingPublicKey(x: x, y: y)) }
        #expect(abort?.send == .dhKeyCheckFailed)
    }

    @Test("Our own public key sent back: Invalid Parameters")
    func reflectedPublicKey() throws {
        let link = PairingLink(initiator: PairingOptions(), responder: PairingOptions())
        let (x, y) = try Self.initiatorPublicKey(link)
        let abort = #expect(throws: PairingAbort.self) { try link.initiator.receive(.pairingPublicKey(x: x, y: y)) }
        #expect(abort?.send == .invalidParameters)
    }
}
