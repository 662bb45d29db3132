@testable import SMP
import Testing

/// A peer of a later Core version may set bits this one reserves. Reserved bits are ignored on receipt,
/// but c1 takes the Pairing Request and Response as sent (Vol 3 Part H §2.2.3) and f6 the AuthReq as
/// sent (§2.2.8): a pairing with such a peer must still succeed.
@Suite("PairingSession: reserved bits a peer sets")
struct PairingReservedBitsTests {
    /// Bits 4–7 of a Key Distribution field are reserved (Figure 3.11); bits 6–7 of AuthReq (Figure 3.3).
    static let reservedKeyBits = KeyDistribution(rawValue: 0xF0)
    static let reservedAuthBits = AuthenticationRequirements(rawValue: 0xC0)

    @Test("Legacy pairing with reserved Key Distribution bits in the Pairing Request")
    func legacyKeyDistribution() throws {
        let options = PairingOptions(secureConnections: false)
        let link = PairingLink(initiator: options, responder: options)
        link.initiator.localFeatures.initiatorKeys.formUnion(Self.reservedKeyBits)
        link.initiator.localFeatures.responderKeys.formUnion(KeyDistribution(rawValue: 0x10))
        let (initiator, responder) = try PairingSessionTests.finish(link)
        #expect(initiator.bond.longTermKey == responder.bond.localLongTermKey)
        #expect(initiator.bond.peerAddress == PairingLink.responderIdentity.address)
        // The responder answers with the keys both know, none of the reserved bits.
        guard case .pairingResponse(let response)? = link.transcript.first(where: { $0.pdu.code == .pairingResponse })?.pdu else {
            Issue.record("no Pairing Response")
            return
        }
        #expect(response.initiatorKeys == [.encryptionKey, .identityKey])
        #expect(response.responderKeys == [.encryptionKey, .identityKey])
    }

    @Test("Secure Connections with reserved AuthReq bits on both sides", arguments: [true, false])
    func authRequirements(numericComparison: Bool) throws {
        let options = PairingOptions(ioCapability: numericComparison ? .displayYesNo : .noInputNoOutput, mitm: numericComparison)
        let link = PairingLink(initiator: options, responder: options)
        link.initiator.localFeatures.authRequirements.formUnion(Self.reservedAuthBits)
        link.responder.localFeatures.authRequirements.formUnion(AuthenticationRequirements(rawValue: 0x40))
        let (initiator, responder) = try PairingSessionTests.finish(link)
        #expect(initiator.linkKey == responder.linkKey)
        #expect(initiator.method == (numericComparison ? .numericComparison : .justWorks))
    }

    @Test("A Pairing Response with reserved Key Distribution bits is not refused")
    func responseKeyDistribution() throws {
        let link = PairingLink(initiator: PairingOptions(), responder: PairingOptions())
        let answer = try link.responder.receive(link.initiator.start())
        guard case .pairingResponse(var features)? = answer.send.first else {
            Issue.record("the responder answered \(answer.send)")
            return
        }
        features.initiatorKeys.formUnion(Self.reservedKeyBits)
        features.responderKeys.formUnion(Self.reservedKeyBits)
        let bytes = SMPPDU.pairingResponse(features).encoded
        let step = try link.initiator.receive(try SMPPDU(decoding: bytes))
        #expect(step.send.first?.code == .pairingPublicKey)
    }
}
