// Phase 2 of LE legacy pairing: confirm and random values, then the STK.
import BluetoothCrypto

extension PairingSession {
    /// Mconfirm / Sconfirm = c1(TK, rand, preq, pres, iat, ia, rat, ra) with a fresh random (§2.3.5.5).
    func legacyConfirm() throws(PairingAbort) -> [UInt8] {
        localRandom = try random(16)
        return try c1(localRandom)
    }

    func c1(_ rand: [UInt8]) throws(PairingAbort) -> [UInt8] {
        let (tk, preq, pres, a) = (temporaryKey, Array(preq.reversed()), Array(pres.reversed()), addresses)
        return try crypto("c1") { () throws(BluetoothCryptoError) in
            try SecurityFunctions.c1(k: tk, r: rand, preq: preq, pres: pres, iat: a.initiatorRandom ? 1 : 0, ia: a.initiator.bigEndianBytes,
                                     rat: a.responderRandom ? 1 : 0, ra: a.responder.bigEndianBytes)
        }
    }

    /// The peer's confirm value: the initiator answers with Mrand, the responder with Sconfirm.
    func legacyConfirmReceived(_ confirm: [UInt8]) throws(PairingAbort) -> PairingStep {
        peerConfirm = confirm
        phase = .legacyRandom
        if isInitiator { return PairingStep(send: [.pairingRandom(localRandom.reversed())]) }
        let sconfirm = try legacyConfirm()
        return PairingStep(send: [.pairingConfirm(sconfirm.reversed())])
    }

    /// The peer's random value: check its confirm, then STK = s1(TK, Srand, Mrand) (§2.3.5.5).
    func legacyRandomReceived(_ peerRandom: [UInt8]) throws(PairingAbort) -> PairingStep {
        guard try c1(peerRandom) == peerConfirm else {
            throw .ours(.confirmValueFailed, "the peer's Pairing Random does not match its Pairing Confirm" +
                        (method.isAuthenticated ? " (a different passkey or OOB key?)" : ""))
        }
        let (srand, mrand) = isInitiator ? (peerRandom, localRandom) : (localRandom, peerRandom)
        let tk = temporaryKey
        let stk = masked(try crypto("s1") { () throws(BluetoothCryptoError) in try SecurityFunctions.s1(k: tk, r1: srand, r2: mrand) })
        let key = LongTermKey(key: stk.reversed())
        encryptionKey = key
        phase = .encrypting
        if isInitiator { return PairingStep(encryptWith: key) }
        return PairingStep(send: [.pairingRandom(localRandom.reversed())], answerLTKRequestWith: key)
    }
}
