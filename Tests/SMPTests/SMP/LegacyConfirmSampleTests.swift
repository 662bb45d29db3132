@testable import HCIPackets
@testable import SMP
import Testing

/// The c1 example of Core v5.4 Vol 3 Part H §2.2.3, end to end through a session: an initiator whose
/// Pairing Request is the example's preq, given the example's Pairing Response as PDU octets, computes
/// the example's confirm value from the example's random number and addresses.
@Suite("PairingSession: the §2.2.3 c1 example")
struct LegacyConfirmSampleTests {
    @Test("Mconfirm of the example: 1e1e3fef878988ead2a74dc5bef13b86")
    func example() throws {
        // ia = A1A2A3A4A5A6 (random, iat = 1), ra = B1B2B3B4B5B6 (public, rat = 0).
        let addresses = PairingAddresses(initiator: BDAddress(0xA1A2_A3A4_A5A6), initiatorRandom: true,
                                         responder: BDAddress(0xB1B2_B3B4_B5B6), responderRandom: false)
        let session = PairingSession(isInitiator: true, options: PairingOptions(secureConnections: false), addresses: addresses,
                                     identity: nil)
        // preq = 0x07071000000101 and pres = 0x05000800000302, as PDUs (least significant octet first).
        guard case .pairingRequest(let request) = try SMPPDU(decoding: [0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07]) else {
            Issue.record("the example's preq is not a Pairing Request")
            return
        }
        session.localFeatures = request
        #expect(session.start().encoded == [0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07])
        let step = try session.receive(try SMPPDU(decoding: [0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05]))
        // Neither side asks for MITM: Just Works, whose TK is zero as in the example; the key size is 8.
        #expect(session.method == .justWorks && session.keySize == 8 && !session.secureConnections)
        let r: [UInt8] = [0x57, 0x83, 0xD5, 0x21, 0x56, 0xAD, 0x6F, 0x0E, 0x63, 0x88, 0x27, 0x4E, 0xC6, 0x70, 0x2E, 0xE0]
        #expect(try session.c1(r) == [0x1E, 0x1E, 0x3F, 0xEF, 0x87, 0x89, 0x88, 0xEA, 0xD2, 0xA7, 0x4D, 0xC5, 0xBE, 0xF1, 0x3B, 0x86])
        // The Pairing Confirm it sent is c1 of its own random, least significant octet first.
        #expect(step.send == [.pairingConfirm(try session.c1(session.localRandom).reversed())])
    }
}
