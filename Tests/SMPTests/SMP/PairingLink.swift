@testable import HCIPackets
@testable import SMP
import Testing

/// The two ends of a pairing.
enum PairingSide: Sendable, CustomStringConvertible {
    case initiator, responder
    var other: PairingSide { self == .initiator ? .responder : .initiator }
    var description: String { self == .initiator ? "initiator" : "responder" }
}

/// How a pairing in a `PairingLink` ended with a Pairing Failed.
struct PairingFailure {
    /// The side that failed the pairing.
    let side: PairingSide
    let abort: PairingAbort
    /// What the other side made of the Pairing Failed PDU it was sent (nil when none was sent).
    let peerAbort: PairingAbort?

    /// The reason, whether the peer sent it, and the detail of a `.pairingFailed` error.
    static func parts(_ abort: PairingAbort?) -> (reason: PairingFailureReason, byPeer: Bool, detail: String)? {
        guard let abort, case .pairingFailed(let reason, let byPeer, let detail) = abort.error else { return nil }
        return (reason, byPeer, detail)
    }
}

/// An initiator and a responder `PairingSession` wired together in memory: each PDU one sends is
/// encoded, decoded again and handed to the other; when the initiator starts encryption with the key
/// the responder will answer the LTK request with, both are told the link is encrypted.
final class PairingLink {
    static let addresses = PairingAddresses(
        initiator: BDAddress(0xC1_22_33_44_55_66), initiatorRandom: true,
        responder: BDAddress(0x00_1B_DC_07_32_EF), responderRandom: false)
    static let initiatorIdentity = LocalIdentity(address: BDAddress(0xC0_AA_BB_CC_DD_01), addressType: .random,
                                                 identityResolvingKey: Array(0x01...0x10))
    static let responderIdentity = LocalIdentity(address: BDAddress(0x00_1B_DC_07_32_EF), addressType: .public,
                                                 identityResolvingKey: Array(0xE1...0xF0))

    let initiator: PairingSession
    let responder: PairingSession
    /// Every PDU that crossed, in order, with the side that sent it.
    private(set) var transcript: [(from: PairingSide, pdu: SMPPDU)] = []
    private(set) var prompts: [PairingSide: [PairingPrompt]] = [:]
    private(set) var results: [PairingSide: PairingResult] = [:]
    /// The key the initiator encrypted with, and the one the responder answered the LTK request with.
    private(set) var encryptWith: LongTermKey?
    private(set) var answerLTKRequestWith: LongTermKey?
    private var queue: [(to: PairingSide, pdu: SMPPDU)] = []
    private var encrypted = false

    init(initiator: PairingOptions, responder: PairingOptions, identities: Bool = true) {
        self.initiator = PairingSession(isInitiator: true, options: initiator, addresses: Self.addresses,
                                        identity: identities ? Self.initiatorIdentity : nil)
        self.responder = PairingSession(isInitiator: false, options: responder, addresses: Self.addresses,
                                        identity: identities ? Self.responderIdentity : nil)
    }

    func session(_ side: PairingSide) -> PairingSession { side == .initiator ? initiator : responder }

    /// Runs the pairing from the initiator's Pairing Request to its end: nil when both sides finished,
    /// else the failure (after the other side was given the Pairing Failed PDU).
    func run() throws -> PairingFailure? {
        queue = [(.responder, initiator.start())]
        while !queue.isEmpty {
            let (to, pdu) = queue.removeFirst()
            let decoded = try SMPPDU(decoding: pdu.encoded)
            #expect(decoded == pdu)
            transcript.append((to.other, decoded))
            do throws(PairingAbort) {
                try take(session(to).receive(decoded), from: to)
                if encryptWith != nil, !encrypted {
                    encrypted = true
                    try take(initiator.encryptionEnabled(), from: .initiator)
                    try take(responder.encryptionEnabled(), from: .responder)
                }
            } catch {
                return failure(error, at: to)
            }
        }
        #expect(results.count == 2, "the PDUs ran out before both sides finished")
        return nil
    }

    /// What a step asks: PDUs go to the other side; keys, prompts and results are kept.
    private func take(_ step: PairingStep, from side: PairingSide) {
        queue += step.send.map { (side.other, $0) }
        prompts[side, default: []] += step.prompts
        if let key = step.encryptWith {
            #expect(side == .initiator)
            #expect(answerLTKRequestWith != nil, "the initiator encrypts before the responder has the key")
            encryptWith = key
        }
        if let key = step.answerLTKRequestWith {
            #expect(side == .responder)
            answerLTKRequestWith = key
        }
        if let result = step.finished { results[side] = result }
    }

    /// `side` failed the pairing: the other side receives the Pairing Failed it sends.
    private func failure(_ abort: PairingAbort, at side: PairingSide) -> PairingFailure {
        var peerAbort: PairingAbort?
        if let reason = abort.send {
            transcript.append((side, .pairingFailed(reason)))
            do {
                _ = try session(side.other).receive(.pairingFailed(reason))
            } catch {
                peerAbort = error
            }
        }
        return PairingFailure(side: side, abort: abort, peerAbort: peerAbort)
    }

    /// How many PDUs with `code` the side sent.
    func count(_ code: SMPCode, from side: PairingSide) -> Int {
        transcript.filter { $0.from == side && $0.pdu.code == code }.count
    }
}
