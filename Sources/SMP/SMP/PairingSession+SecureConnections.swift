// Phase 2 of LE Secure Connections: public keys, authentication stage 1 and 2, the LTK.
import BluetoothCrypto

extension PairingSession {
    func localPublicKeyPDU() throws(PairingAbort) -> SMPPDU {
        guard let keyPair else { throw .ours(.unspecifiedReason, "no P-256 key pair") }
        return .pairingPublicKey(x: keyPair.publicKeyX.reversed(), y: keyPair.publicKeyY.reversed())
    }

    /// PKa / PKb X coordinates, as f4 and g2 take them.
    var initiatorX: [UInt8] { (isInitiator ? keyPair?.publicKeyX : peerPublicKey?.x) ?? [] }
    var responderX: [UInt8] { (isInitiator ? peerPublicKey?.x : keyPair?.publicKeyX) ?? [] }
    var initiatorNonce: [UInt8] { isInitiator ? localRandom : peerRandom }
    var responderNonce: [UInt8] { isInitiator ? peerRandom : localRandom }
    /// The passkey bit of the current round as f4's Z: 0x80 | bit (§2.3.5.6.3).
    var passkeyBit: UInt8 { 0x80 | UInt8(passkey >> UInt32(passkeyRound) & 1) }
    var usesPasskey: Bool { if case .passkeyEntry = method { true } else { false } }

    func f4(_ u: [UInt8], _ v: [UInt8], _ x: [UInt8], _ z: UInt8) throws(PairingAbort) -> [UInt8] {
        try crypto("f4") { () throws(BluetoothCryptoError) in try SecurityFunctions.f4(u: u, v: v, x: x, z: z) }
    }

    /// The peer's public key: validate it, compute the DHKey (§2.3.5.6.1), and start authentication stage 1.
    func publicKeyReceived(x: [UInt8], y: [UInt8]) throws(PairingAbort) -> PairingStep {
        guard let keyPair else { throw .ours(.unspecifiedReason, "no P-256 key pair") }
        if x == keyPair.publicKeyX {
            throw .ours(.invalidParameters, "the peer sent our own public key back")
        }
        do {
            dhKey = try keyPair.dhKey(peerX: x, peerY: y)
        } catch {
            throw .ours(.dhKeyCheckFailed, "the peer's public key is not a point on P-256 (\(error))")
        }
        peerPublicKey = (x, y)
        var step = PairingStep()
        if !isInitiator { step.send.append(try localPublicKeyPDU()) }
        if usesPasskey {
            passkeyRound = 0
            if isInitiator { step.send.append(try nextPasskeyCommitment()) }
            phase = .scConfirm
        } else if isInitiator {
            phase = .scConfirm
        } else {
            localRandom = try random(16)
            step.send.append(.pairingConfirm(try f4(responderX, initiatorX, localRandom, 0).reversed()))
            phase = .scRandom
        }
        return step
    }

    /// Passkey round `passkeyRound`: a fresh nonce and its commitment, Cai = f4(PKax, PKbx, Nai, rai) or
    /// Cbi = f4(PKbx, PKax, Nbi, rbi).
    func nextPasskeyCommitment() throws(PairingAbort) -> SMPPDU {
        localRandom = try random(16)
        let (u, v) = isInitiator ? (initiatorX, responderX) : (responderX, initiatorX)
        return .pairingConfirm(try f4(u, v, localRandom, passkeyBit).reversed())
    }

    func scConfirmReceived(_ confirm: [UInt8]) throws(PairingAbort) -> PairingStep {
        peerConfirm = confirm
        phase = .scRandom
        if usesPasskey {
            if isInitiator { return PairingStep(send: [.pairingRandom(localRandom.reversed())]) }
            return PairingStep(send: [try nextPasskeyCommitment()])
        }
        // Just Works / Numeric Comparison: only the initiator receives Cb.
        guard isInitiator else { throw .ours(.unspecifiedReason, "Pairing Confirm came while we awaited Pairing Random") }
        localRandom = try random(16)
        return PairingStep(send: [.pairingRandom(localRandom.reversed())])
    }

    func scRandomReceived(_ nonce: [UInt8]) throws(PairingAbort) -> PairingStep {
        peerRandom = nonce
        if usesPasskey { return try passkeyRandomReceived() }
        var step = PairingStep()
        if isInitiator {
            guard try f4(responderX, initiatorX, peerRandom, 0) == peerConfirm else {
                throw .ours(.confirmValueFailed, "the responder's Pairing Random does not match its Pairing Confirm")
            }
        } else {
            step.send.append(.pairingRandom(localRandom.reversed()))
        }
        if method == .numericComparison {
            let (u, v, x, y) = (initiatorX, responderX, initiatorNonce, responderNonce)
            let value = try crypto("g2") { () throws(BluetoothCryptoError) in try SecurityFunctions.g2(u: u, v: v, x: x, y: y) } % 1_000_000
            step.prompts.append(.compareNumber(value, confirmed: options.confirmsNumericComparison))
            guard options.confirmsNumericComparison else {
                throw .ours(.numericComparisonFailed, "the numbers (\(value)) were not confirmed on this side")
            }
        }
        try deriveLTK()
        if isInitiator { step.send.append(.pairingDHKeyCheck(try localDHKeyCheck().reversed())) }
        phase = .scDHKeyCheck
        return step
    }

    /// A passkey round's nonce: check the peer's commitment, then the next round or the DHKey checks.
    func passkeyRandomReceived() throws(PairingAbort) -> PairingStep {
        let (u, v) = isInitiator ? (responderX, initiatorX) : (initiatorX, responderX)
        guard try f4(u, v, peerRandom, passkeyBit) == peerConfirm else {
            throw .ours(.confirmValueFailed, "passkey round \(passkeyRound + 1): the peer's commitment does not match (a different passkey?)")
        }
        var step = PairingStep()
        if !isInitiator { step.send.append(.pairingRandom(localRandom.reversed())) }
        passkeyRound += 1
        if passkeyRound < 20 {
            if isInitiator { step.send.append(try nextPasskeyCommitment()) }
            phase = .scConfirm
            return step
        }
        try deriveLTK()
        if isInitiator { step.send.append(.pairingDHKeyCheck(try localDHKeyCheck().reversed())) }
        phase = .scDHKeyCheck
        return step
    }

    /// MacKey and LTK = f5(DHKey, Na, Nb, A, B) (§2.3.5.6.5).
    func deriveLTK() throws(PairingAbort) {
        let (w, n1, n2, a1, a2) = (dhKey, initiatorNonce, responderNonce, addresses.a, addresses.b)
        let keys = try crypto("f5") { () throws(BluetoothCryptoError) in try SecurityFunctions.f5(w: w, n1: n1, n2: n2, a1: a1, a2: a2) }
        macKey = keys.macKey
        encryptionKey = LongTermKey(key: masked(keys.ltk).reversed())
    }

    /// IOcap of one side for f6: AuthReq, OOB data flag, IO capability (most significant first).
    func ioCap(_ features: PairingFeatures) -> [UInt8] {
        [features.authRequirements.rawValue, features.oobDataPresent ? 1 : 0, features.ioCapability.rawValue]
    }

    /// Ea = f6(MacKey, Na, Nb, rb, IOcapA, A, B) or Eb = f6(MacKey, Nb, Na, ra, IOcapB, B, A); r is the
    /// passkey for Passkey Entry, zero otherwise.
    func dhKeyCheck(ofInitiator: Bool) throws(PairingAbort) -> [UInt8] {
        guard let peerFeatures else { throw .ours(.unspecifiedReason, "no features") }
        let initiatorFeatures = isInitiator ? localFeatures : peerFeatures
        let responderFeatures = isInitiator ? peerFeatures : localFeatures
        let r = usesPasskey ? temporaryKey : [UInt8](repeating: 0, count: 16)
        let (mac, na, nb, a, b) = (macKey, initiatorNonce, responderNonce, addresses.a, addresses.b)
        let cap = ioCap(ofInitiator ? initiatorFeatures : responderFeatures)
        return try crypto("f6") { () throws(BluetoothCryptoError) in
            ofInitiator ? try SecurityFunctions.f6(w: mac, n1: na, n2: nb, r: r, ioCap: cap, a1: a, a2: b)
                        : try SecurityFunctions.f6(w: mac, n1: nb, n2: na, r: r, ioCap: cap, a1: b, a2: a)
        }
    }

    func localDHKeyCheck() throws(PairingAbort) -> [UInt8] { try dhKeyCheck(ofInitiator: isInitiator) }

    /// The peer's DHKey check: the responder answers with Eb and waits for the LTK request; the initiator
    /// starts encryption with the LTK.
    func dhKeyCheckReceived(_ check: [UInt8]) throws(PairingAbort) -> PairingStep {
        guard try dhKeyCheck(ofInitiator: !isInitiator) == check else {
            throw .ours(.dhKeyCheckFailed, "the peer's DHKey check value does not match")
        }
        guard let key = encryptionKey else { throw .ours(.unspecifiedReason, "no LTK") }
        phase = .encrypting
        if isInitiator { return PairingStep(encryptWith: key) }
        return PairingStep(send: [.pairingDHKeyCheck(try localDHKeyCheck().reversed())], answerLTKRequestWith: key)
    }
}
