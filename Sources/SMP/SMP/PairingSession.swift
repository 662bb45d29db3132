// One pairing in progress, as a state machine fed with PDUs.
import BluetoothCrypto
import HCIPackets

/// The addresses a pairing authenticates: each side's over-the-air address and its type (0 public, 1 random).
public struct PairingAddresses: Sendable, Hashable {
    public var initiator: BDAddress
    public var initiatorRandom: Bool
    public var responder: BDAddress
    public var responderRandom: Bool

    public init(initiator: BDAddress, initiatorRandom: Bool, responder: BDAddress, responderRandom: Bool) {
        self.initiator = initiator
        self.initiatorRandom = initiatorRandom
        self.responder = responder
        self.responderRandom = responderRandom
    }

    /// A1 / A2 of f5 and f6: the type octet, then the address, most significant first (56 bits).
    var a: [UInt8] { [initiatorRandom ? 1 : 0] + initiator.bigEndianBytes }
    var b: [UInt8] { [responderRandom ? 1 : 0] + responder.bigEndianBytes }
}

/// What a pairing prompts a person with; the harness answers from its options and reports the value.
public enum PairingPrompt: Sendable, Hashable {
    /// This side displays the passkey (six digits).
    case displayPasskey(UInt32)
    /// This side entered the passkey.
    case enteredPasskey(UInt32)
    /// Numeric Comparison: the number both sides display, and whether we confirmed it.
    case compareNumber(UInt32, confirmed: Bool)
}

/// What the state machine asks its link to do after a step.
package struct PairingStep {
    package var send: [SMPPDU] = []
    /// As initiator: start encryption with this key (LE Enable Encryption).
    package var encryptWith: LongTermKey?
    /// As responder: the key to answer the controller's LTK request with.
    package var answerLTKRequestWith: LongTermKey?
    package var prompts: [PairingPrompt] = []
    /// The pairing is complete.
    package var finished: PairingResult?
}

/// Why a pairing stops: the reason we send (nil when the peer failed it) and the error to report.
package struct PairingAbort: Error {
    package let send: PairingFailureReason?
    package let error: SecurityError

    package init(send: PairingFailureReason?, error: SecurityError) {
        self.send = send
        self.error = error
    }

    /// We fail the pairing with `reason`.
    package static func ours(_ reason: PairingFailureReason, _ detail: String) -> PairingAbort {
        PairingAbort(send: reason, error: .pairingFailed(reason: reason, byPeer: false, detail: detail))
    }
}

/// The result of a successful pairing.
public struct PairingResult: Sendable, Hashable {
    public var method: PairingMethod
    public var secureConnections: Bool
    public var keySize: UInt8
    /// Whether both sides asked for bonding: then `bond` holds what to keep.
    public var bonded: Bool
    public var bond: Bond
    /// The key the link is now encrypted with (HCI order).
    public var linkKey: LongTermKey
    /// The peer's own pairing features (from its Pairing Request or Response).
    public var peerFeatures: PairingFeatures
}

/// One pairing on one link (Core v5.4 Vol 3 Part H §2.3): phase 1 (features), phase 2 (legacy or Secure
/// Connections authentication and key generation), phase 3 (key distribution after encryption). It does
/// no I/O: each input returns a `PairingStep`, and the link sends and encrypts.
package final class PairingSession {
    package enum Phase: Equatable {
        case awaitingResponse, awaitingRequest
        case legacyConfirm, legacyRandom
        case publicKey, scConfirm, scRandom, scDHKeyCheck
        case encrypting
        case distributing
        case done
    }

    package let isInitiator: Bool
    let options: PairingOptions
    let addresses: PairingAddresses
    let identity: LocalIdentity?
    package var phase: Phase
    /// The Pairing Request and Response PDUs as sent (7 octets each), for c1 and f6.
    var preq: [UInt8] = []
    var pres: [UInt8] = []
    var localFeatures: PairingFeatures
    var peerFeatures: PairingFeatures?
    package var method: PairingMethod = .justWorks
    package var secureConnections = false
    package var keySize: UInt8 = 16
    /// Keys each side distributes, as the Pairing Response settled them.
    var initiatorKeys: KeyDistribution = []
    var responderKeys: KeyDistribution = []

    // Phase 2, legacy (values most significant octet first).
    var temporaryKey: [UInt8] = []
    var localRandom: [UInt8] = []
    var peerConfirm: [UInt8] = []
    // Phase 2, Secure Connections.
    var keyPair: P256KeyPair?
    var peerPublicKey: (x: [UInt8], y: [UInt8])?
    var dhKey: [UInt8] = []
    var passkey: UInt32 = 0
    var passkeyRound = 0
    var peerRandom: [UInt8] = []
    var macKey: [UInt8] = []
    package var encryptionKey: LongTermKey?

    // Phase 3: what the peer distributed.
    var peerLTK: [UInt8]?
    var peerEDIVRand: (UInt16, UInt64)?
    var peerIRK: [UInt8]?
    var peerIdentity: (AddressType, BDAddress)?
    var peerCSRK: [UInt8]?
    var localDistributedLTK: LongTermKey?
    var expectedFromPeer: [SMPCode] = []

    package init(isInitiator: Bool, options: PairingOptions, addresses: PairingAddresses, identity: LocalIdentity?) {
        self.isInitiator = isInitiator
        self.options = options
        self.addresses = addresses
        self.identity = identity
        phase = isInitiator ? .awaitingResponse : .awaitingRequest
        localFeatures = options.features(asInitiator: isInitiator)
        if identity == nil {
            localFeatures.initiatorKeys.remove(.identityKey)
            localFeatures.responderKeys.remove(.identityKey)
        }
    }

    /// What the initiator sends first: Pairing Request.
    package func start() -> SMPPDU {
        let request = SMPPDU.pairingRequest(localFeatures)
        preq = request.encoded
        return request
    }

    /// The name of what the session waits for, for timeout messages.
    package var awaited: String {
        switch phase {
        case .awaitingResponse: "Pairing Response"
        case .awaitingRequest: "Pairing Request"
        case .legacyConfirm, .scConfirm: "Pairing Confirm"
        case .legacyRandom, .scRandom: "Pairing Random"
        case .publicKey: "Pairing Public Key"
        case .scDHKeyCheck: "Pairing DHKey Check"
        case .encrypting: "encryption"
        case .distributing: expectedFromPeer.first.map(\.description) ?? "key distribution"
        case .done: "nothing"
        }
    }

    /// Handles one PDU from the peer.
    package func receive(_ pdu: SMPPDU) throws(PairingAbort) -> PairingStep {
        if case .pairingFailed(let reason) = pdu {
            throw PairingAbort(send: nil, error: .pairingFailed(reason: reason, byPeer: true, detail: "while we awaited \(awaited)"))
        }
        switch (phase, pdu) {
        case (.awaitingRequest, .pairingRequest(let features)):
            return try requested(features, pdu: pdu)
        case (.awaitingResponse, .pairingResponse(let features)):
            return try responded(features, pdu: pdu)
        case (.legacyConfirm, .pairingConfirm(let value)):
            return try legacyConfirmReceived(Array(value.reversed()))
        case (.legacyRandom, .pairingRandom(let value)):
            return try legacyRandomReceived(Array(value.reversed()))
        case (.publicKey, .pairingPublicKey(let x, let y)):
            return try publicKeyReceived(x: Array(x.reversed()), y: Array(y.reversed()))
        case (.scConfirm, .pairingConfirm(let value)):
            return try scConfirmReceived(Array(value.reversed()))
        case (.scRandom, .pairingRandom(let value)):
            return try scRandomReceived(Array(value.reversed()))
        case (.scDHKeyCheck, .pairingDHKeyCheck(let value)):
            return try dhKeyCheckReceived(Array(value.reversed()))
        case (.distributing, _) where pdu.code == expectedFromPeer.first:
            return try keyReceived(pdu)
        case (_, .keypressNotification):
            return PairingStep()
        default:
            throw .ours(.unspecifiedReason, "\(pdu.code) came while we awaited \(awaited)")
        }
    }

    /// Phase 1 as responder: answer the Pairing Request with our features.
    func requested(_ features: PairingFeatures, pdu: SMPPDU) throws(PairingAbort) -> PairingStep {
        preq = pdu.encoded
        peerFeatures = features
        if let reason = options.rejectsWith { throw .ours(reason, "this device refuses to pair") }
        var response = localFeatures
        response.initiatorKeys = localFeatures.initiatorKeys.intersection(features.initiatorKeys)
        response.responderKeys = localFeatures.responderKeys.intersection(features.responderKeys)
        if !features.authRequirements.contains(.bonding) || !options.bonding {
            response.initiatorKeys = []
            response.responderKeys = []
        }
        let responsePDU = SMPPDU.pairingResponse(response)
        pres = responsePDU.encoded
        try settle(initiator: features, responder: response)
        var step = PairingStep(send: [responsePDU])
        step.prompts = try preparePhase2()
        return step
    }

    /// Phase 1 as initiator: the Pairing Response settles method, key size and keys.
    func responded(_ features: PairingFeatures, pdu: SMPPDU) throws(PairingAbort) -> PairingStep {
        pres = pdu.encoded
        peerFeatures = features
        // Reserved bits (Figure 3.11) are ignored on receipt.
        let defined: KeyDistribution = [.encryptionKey, .identityKey, .signingKey, .linkKey]
        guard features.initiatorKeys.intersection(defined).isSubset(of: localFeatures.initiatorKeys),
              features.responderKeys.intersection(defined).isSubset(of: localFeatures.responderKeys) else {
            throw .ours(.invalidParameters, "the Pairing Response asks for keys the Pairing Request did not offer")
        }
        try settle(initiator: localFeatures, responder: features)
        var step = PairingStep()
        step.prompts = try preparePhase2()
        if secureConnections {
            step.send = [try localPublicKeyPDU()]
            phase = .publicKey
        } else {
            let confirm = try legacyConfirm()
            step.send = [.pairingConfirm(confirm.reversed())]
            phase = .legacyConfirm
        }
        return step
    }

    /// Method, Secure Connections, key size and key distribution from both features (§2.3.5.1, §2.3.4).
    func settle(initiator: PairingFeatures, responder: PairingFeatures) throws(PairingAbort) {
        secureConnections = initiator.authRequirements.contains(.secureConnections) && responder.authRequirements.contains(.secureConnections)
        if options.secureConnectionsOnly && !secureConnections {
            throw .ours(.authenticationRequirements, "this device requires LE Secure Connections; the peer offers legacy pairing only")
        }
        method = PairingMethod.select(initiator: initiator, responder: responder, secureConnections: secureConnections)
        if method == .outOfBand && secureConnections {
            throw .ours(.oobNotAvailable, "Secure Connections OOB data is not supported by this harness")
        }
        if options.mitm && !method.isAuthenticated {
            throw .ours(.authenticationRequirements, "MITM protection was required and the IO capabilities allow only Just Works")
        }
        keySize = min(initiator.maxKeySize, responder.maxKeySize)
        if keySize < options.minKeySize {
            throw .ours(.encryptionKeySize, "the key size would be \(keySize) octets, below the \(options.minKeySize) this device accepts")
        }
        initiatorKeys = responder.initiatorKeys
        responderKeys = responder.responderKeys
        if secureConnections {
            initiatorKeys.remove(.encryptionKey)
            responderKeys.remove(.encryptionKey)
        }
        initiatorKeys.remove(.linkKey)
        responderKeys.remove(.linkKey)
    }

    /// The passkey or TK the method needs, drawn or taken from the options; the prompts to report.
    func preparePhase2() throws(PairingAbort) -> [PairingPrompt] {
        var prompts: [PairingPrompt] = []
        switch method {
        case .justWorks, .numericComparison:
            temporaryKey = [UInt8](repeating: 0, count: 16)
        case .outOfBand:
            guard let key = options.outOfBandKey, key.count == 16 else { throw .ours(.oobNotAvailable, "no OOB key") }
            temporaryKey = key
        case .passkeyEntry(let roles):
            let weDisplay = (roles == .initiatorDisplays) == isInitiator && roles != .bothInput
            if let given = options.passkey {
                passkey = given
            } else if weDisplay {
                passkey = try randomPasskey()
            } else {
                throw .ours(.passkeyEntryFailed, "\(method) needs a passkey to enter: give one (--passkey)")
            }
            guard passkey <= 999_999 else { throw .ours(.passkeyEntryFailed, "passkey \(passkey) has more than six digits") }
            prompts.append(weDisplay ? .displayPasskey(passkey) : .enteredPasskey(passkey))
            var tk = [UInt8](repeating: 0, count: 12)
            tk += [UInt8(passkey >> 24 & 0xFF), UInt8(passkey >> 16 & 0xFF), UInt8(passkey >> 8 & 0xFF), UInt8(passkey & 0xFF)]
            temporaryKey = tk
        }
        if secureConnections {
            do {
                keyPair = try P256KeyPair()
            } catch {
                throw .ours(.unspecifiedReason, "P-256 key generation failed: \(error)")
            }
            phase = .publicKey
        } else {
            phase = .legacyConfirm
        }
        return prompts
    }

    func randomPasskey() throws(PairingAbort) -> UInt32 {
        let bytes = try random(4)
        let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return value % 1_000_000
    }

    func random(_ count: Int) throws(PairingAbort) -> [UInt8] {
        do {
            return try SecureRandom.bytes(count)
        } catch {
            throw .ours(.unspecifiedReason, "no random numbers: \(error)")
        }
    }

    /// A toolbox call whose failure ends the pairing with Unspecified Reason.
    func crypto<T>(_ what: String, _ body: () throws(BluetoothCryptoError) -> T) throws(PairingAbort) -> T {
        do {
            return try body()
        } catch {
            throw .ours(.unspecifiedReason, "\(what): \(error)")
        }
    }

    /// The key masked to the negotiated size (§2.3.4): the most significant octets beyond it are zero.
    /// `key` is most significant octet first.
    func masked(_ key: [UInt8]) -> [UInt8] {
        let drop = 16 - Int(keySize)
        return [UInt8](repeating: 0, count: drop) + key.dropFirst(drop)
    }
}
