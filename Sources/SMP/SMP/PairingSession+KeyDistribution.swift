// Phase 3: the keys each side distributes once the link is encrypted.

extension PairingSession {
    /// The PDUs a key set arrives in, in the order §3.6.1 gives.
    static func codes(for keys: KeyDistribution) -> [SMPCode] {
        var codes: [SMPCode] = []
        if keys.contains(.encryptionKey) { codes += [.encryptionInformation, .centralIdentification] }
        if keys.contains(.identityKey) { codes += [.identityInformation, .identityAddressInformation] }
        if keys.contains(.signingKey) { codes.append(.signingInformation) }
        return codes
    }

    /// The link is encrypted with the pairing's key: the responder distributes first, then the initiator.
    package func encryptionEnabled() throws(PairingAbort) -> PairingStep {
        guard phase == .encrypting else { return PairingStep() }
        phase = .distributing
        expectedFromPeer = Self.codes(for: isInitiator ? responderKeys : initiatorKeys)
        var step = PairingStep()
        if !isInitiator { step.send = try localKeys() }
        if expectedFromPeer.isEmpty { try finish(&step) }
        return step
    }

    func keyReceived(_ pdu: SMPPDU) throws(PairingAbort) -> PairingStep {
        expectedFromPeer.removeFirst()
        switch pdu {
        case .encryptionInformation(let key): peerLTK = masked(key.reversed()).reversed()
        case .centralIdentification(let ediv, let random): peerEDIVRand = (ediv, random)
        case .identityInformation(let irk): peerIRK = irk
        case .identityAddressInformation(let type, let address):
            guard type == .public || address.isStaticRandom else {
                throw .ours(.invalidParameters, "the identity address \(address) is random but not static")
            }
            peerIdentity = (type, address)
        case .signingInformation(let csrk): peerCSRK = csrk
        default: break
        }
        var step = PairingStep()
        if expectedFromPeer.isEmpty { try finish(&step) }
        return step
    }

    /// The keys this side sends: a fresh LTK with EDIV and Rand (legacy EncKey), our IRK and identity
    /// address (IdKey), a fresh CSRK (SignKey).
    func localKeys() throws(PairingAbort) -> [SMPPDU] {
        let keys = isInitiator ? initiatorKeys : responderKeys
        var pdus: [SMPPDU] = []
        if keys.contains(.encryptionKey) {
            let ltk = LongTermKey(key: masked(try random(16)).reversed(), ediv: UInt16(try random(2).reduce(0) { $0 << 8 | UInt16($1) }),
                                  random: try random(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            localDistributedLTK = ltk
            pdus += [.encryptionInformation(longTermKey: ltk.key), .centralIdentification(ediv: ltk.ediv, random: ltk.random)]
        }
        if keys.contains(.identityKey), let identity {
            pdus += [.identityInformation(identityResolvingKey: identity.identityResolvingKey),
                     .identityAddressInformation(type: identity.addressType.isRandom ? .random : .public, address: identity.address)]
        }
        if keys.contains(.signingKey) { pdus.append(.signingInformation(signatureKey: try random(16))) }
        return pdus
    }

    /// All keys are exchanged (the initiator sends its own last): the result and the bond.
    func finish(_ step: inout PairingStep) throws(PairingAbort) {
        if isInitiator { step.send += try localKeys() }
        guard let encryptionKey, let peerFeatures else { throw .ours(.unspecifiedReason, "no key") }
        let peerAddress = isInitiator ? (addresses.responder, addresses.responderRandom) : (addresses.initiator, addresses.initiatorRandom)
        let identityAddress = peerIdentity.map { ($0.1, $0.0.isRandom) } ?? peerAddress
        let peerDistributed = peerLTK.map { LongTermKey(key: $0, ediv: peerEDIVRand?.0 ?? 0, random: peerEDIVRand?.1 ?? 0) }
        let bond = Bond(peerAddress: identityAddress.0, peerAddressType: identityAddress.1 ? .random : .public, peerIdentityResolvingKey: peerIRK,
                        longTermKey: secureConnections ? encryptionKey : peerDistributed,
                        localLongTermKey: secureConnections ? encryptionKey : localDistributedLTK,
                        peerSignatureKey: peerCSRK, keySize: keySize, authenticated: method.isAuthenticated,
                        secureConnections: secureConnections, method: method.name)
        let bonded = localFeatures.authRequirements.contains(.bonding) && peerFeatures.authRequirements.contains(.bonding)
        step.finished = PairingResult(method: method, secureConnections: secureConnections, keySize: keySize, bonded: bonded,
                                      bond: bond, linkKey: encryptionKey, peerFeatures: peerFeatures)
        phase = .done
    }
}
