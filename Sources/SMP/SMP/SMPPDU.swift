import HCIPackets
// One Security Manager Protocol PDU, decoded.

/// A PDU on the SMP fixed channel (Core v5.4 Vol 3 Part H §3.5–3.6). Multi-octet values are kept in PDU
/// order (least significant octet first), as they travel.
public enum SMPPDU: Sendable, Hashable {
    case pairingRequest(PairingFeatures)
    case pairingResponse(PairingFeatures)
    /// Mconfirm / Sconfirm (legacy), Ca / Cb (Secure Connections), 16 octets.
    case pairingConfirm([UInt8])
    /// Mrand / Srand (legacy), Na / Nb (Secure Connections), 16 octets.
    case pairingRandom([UInt8])
    case pairingFailed(PairingFailureReason)
    /// The LTK a legacy pairing distributes, 16 octets.
    case encryptionInformation(longTermKey: [UInt8])
    /// EDIV and Rand, which identify a distributed LTK.
    case centralIdentification(ediv: UInt16, random: UInt64)
    /// The Identity Resolving Key, 16 octets.
    case identityInformation(identityResolvingKey: [UInt8])
    case identityAddressInformation(type: AddressType, address: BDAddress)
    /// The Connection Signature Resolving Key, 16 octets.
    case signingInformation(signatureKey: [UInt8])
    case securityRequest(AuthenticationRequirements)
    /// A P-256 public key: X and Y, 32 octets each.
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    /// Ea / Eb, 16 octets.
    case pairingDHKeyCheck([UInt8])
    case keypressNotification(UInt8)

    public var code: SMPCode {
        switch self {
        case .pairingRequest: .pairingRequest
        case .pairingResponse: .pairingResponse
        case .pairingConfirm: .pairingConfirm
        case .pairingRandom: .pairingRandom
        case .pairingFailed: .pairingFailed
        case .encryptionInformation: .encryptionInformation
        case .centralIdentification: .centralIdentification
        case .identityInformation: .identityInformation
        case .identityAddressInformation: .identityAddressInformation
        case .signingInformation: .signingInformation
        case .securityRequest: .securityRequest
        case .pairingPublicKey: .pairingPublicKey
        case .pairingDHKeyCheck: .pairingDHKeyCheck
        case .keypressNotification: .pairingKeypressNotification
        }
    }

    /// The PDU as it goes on the channel: code, then parameters.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 1 + code.parameterLength)
        w.u8(code.rawValue)
        switch self {
        case .pairingRequest(let features), .pairingResponse(let features): w.append(features.encoded)
        case .pairingConfirm(let value), .pairingRandom(let value), .pairingDHKeyCheck(let value): w.append(value)
        case .pairingFailed(let reason): w.u8(reason.rawValue)
        case .encryptionInformation(let key), .identityInformation(let key), .signingInformation(let key): w.append(key)
        case .centralIdentification(let ediv, let random): w.u16(ediv); w.u64(random)
        case .identityAddressInformation(let type, let address): w.u8(type.rawValue); w.address(address)
        case .securityRequest(let requirements): w.u8(requirements.rawValue)
        case .pairingPublicKey(let x, let y): w.append(x); w.append(y)
        case .keypressNotification(let type): w.u8(type)
        }
        return w.bytes
    }

    /// Decodes one PDU. Every SMP command has a fixed length: a different length, an unknown code or a
    /// reserved value is an error naming the command (the pairing then fails with Invalid Parameters or
    /// Command Not Supported, §3.3).
    public init(decoding bytes: [UInt8]) throws(SMPDecodingError) {
        guard let first = bytes.first else { throw SMPDecodingError(code: nil, what: "empty PDU") }
        guard let code = SMPCode(rawValue: first) else { throw SMPDecodingError(code: nil, unknownCode: first) }
        let p = bytes[1...]
        guard p.count == code.parameterLength else {
            throw SMPDecodingError(code: code, what: "parameters are \(p.count) octets, not \(code.parameterLength)")
        }
        let array = Array(p)
        switch code {
        case .pairingRequest: self = .pairingRequest(try PairingFeatures(decoding: p, code: code))
        case .pairingResponse: self = .pairingResponse(try PairingFeatures(decoding: p, code: code))
        case .pairingConfirm: self = .pairingConfirm(array)
        case .pairingRandom: self = .pairingRandom(array)
        case .pairingFailed: self = .pairingFailed(PairingFailureReason(rawValue: array[0]))
        case .encryptionInformation: self = .encryptionInformation(longTermKey: array)
        case .centralIdentification:
            let ediv = UInt16(array[0]) | UInt16(array[1]) << 8
            let random = array[2..<10].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
            self = .centralIdentification(ediv: ediv, random: random)
        case .identityInformation: self = .identityInformation(identityResolvingKey: array)
        case .identityAddressInformation:
            guard array[0] <= 1, let type = AddressType(rawValue: array[0]) else {
                throw SMPDecodingError(code: code, what: "AddrType 0x\(hex2(array[0])) is reserved")
            }
            guard let address = BDAddress(littleEndian: array[1...]) else { throw SMPDecodingError(code: code, what: "bad address") }
            self = .identityAddressInformation(type: type, address: address)
        case .signingInformation: self = .signingInformation(signatureKey: array)
        case .securityRequest: self = .securityRequest(AuthenticationRequirements(rawValue: array[0]))
        case .pairingPublicKey: self = .pairingPublicKey(x: Array(array[0..<32]), y: Array(array[32..<64]))
        case .pairingDHKeyCheck: self = .pairingDHKeyCheck(array)
        case .pairingKeypressNotification:
            guard array[0] <= 4 else { throw SMPDecodingError(code: code, what: "Notification Type 0x\(hex2(array[0])) is reserved") }
            self = .keypressNotification(array[0])
        }
    }
}

/// Bytes that are not a valid SMP PDU: names the command and what was wrong, e.g.
/// "Pairing Confirm (0x03): parameters are 15 octets, not 16".
public struct SMPDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: SMPCode?
    public let what: String
    /// The code octet, when it named no SMP command.
    public let unknownCode: UInt8?

    init(code: SMPCode?, what: String) {
        self.code = code
        self.what = what
        unknownCode = nil
    }

    init(code: SMPCode?, unknownCode: UInt8) {
        self.code = code
        self.what = "unknown command code 0x\(hex2(unknownCode))"
        self.unknownCode = unknownCode
    }

    /// The Pairing Failed reason a receiver answers with: Command Not Supported for an unknown code,
    /// Invalid Parameters otherwise.
    public var reason: PairingFailureReason { unknownCode != nil ? .commandNotSupported : .invalidParameters }

    public var description: String { code.map { "\($0): \(what)" } ?? "SMP PDU: \(what)" }
}
