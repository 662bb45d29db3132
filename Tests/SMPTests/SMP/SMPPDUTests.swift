@testable import HCIPackets
@testable import SMP
import Testing

/// SMP PDUs (Core v5.4 Vol 3 Part H §3.3–3.6) decoded field by field and encoded back, the spec's own
/// Pairing Request/Response of the c1 example, and malformed PDUs refused with the right reason.
@Suite("SMP PDUs")
struct SMPPDUTests {
    /// What each sample of `SMPCommandTable` holds, field by field as the command's figure lays it out.
    static func expected(_ code: UInt8) throws -> SMPPDU {
        let address = try #require(BDAddress("C0:11:22:33:44:55"))
        switch code {
        case 0x01: return .pairingRequest(PairingFeatures(
            ioCapability: .keyboardDisplay, oobDataPresent: false, authRequirements: [.bonding, .mitm, .secureConnections, .ct2],
            maxKeySize: 16, initiatorKeys: [.encryptionKey, .identityKey], responderKeys: [.encryptionKey, .identityKey]))
        case 0x02: return .pairingResponse(PairingFeatures(
            ioCapability: .keyboardOnly, oobDataPresent: true, authRequirements: [.bonding, .mitm],
            maxKeySize: 7, initiatorKeys: [.encryptionKey], responderKeys: [.identityKey, .signingKey]))
        case 0x03: return .pairingConfirm(Array(0x10...0x1F))
        case 0x04: return .pairingRandom(Array(0x20...0x2F))
        case 0x05: return .pairingFailed(.confirmValueFailed)
        case 0x06: return .encryptionInformation(longTermKey: Array(0x30...0x3F))
        case 0x07: return .centralIdentification(ediv: 0x1234, random: 0x8807_0605_0403_0201)
        case 0x08: return .identityInformation(identityResolvingKey: Array(0x40...0x4F))
        case 0x09: return .identityAddressInformation(type: .random, address: address)
        case 0x0A: return .signingInformation(signatureKey: Array(0x50...0x5F))
        case 0x0B: return .securityRequest([.bonding, .mitm, .secureConnections])
        case 0x0C: return .pairingPublicKey(x: Array(0x60...0x7F), y: Array(0x80...0x9F))
        case 0x0D: return .pairingDHKeyCheck(Array(0xA0...0xAF))
        default: return .keypressNotification(0x04)
        }
    }

    @Test("Each command decodes to its fields and encodes back to the same octets", arguments: SMPCommandTable.rows)
    func roundTrip(_ row: SMPCommandRow) throws {
        let expected = try Self.expected(row.code)
        let pdu = try SMPPDU(decoding: row.sample)
        #expect(pdu == expected)
        #expect(pdu.code.rawValue == row.code)
        #expect(expected.encoded == row.sample)
        #expect(row.sample.count == 1 + row.parameterLength)
    }

    /// The c1 example's preq = 0x07071000000101 and pres = 0x05000800000302 are written most significant
    /// octet first; the PDUs carry them least significant first.
    static let specPDUs: [(bytes: [UInt8], features: PairingFeatures)] = [
        ([0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07],
         PairingFeatures(ioCapability: .displayYesNo, oobDataPresent: false, authRequirements: [], maxKeySize: 16,
                         initiatorKeys: [.encryptionKey, .identityKey, .signingKey], responderKeys: [.encryptionKey, .identityKey, .signingKey])),
        ([0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05],
         PairingFeatures(ioCapability: .noInputNoOutput, oobDataPresent: false, authRequirements: [], maxKeySize: 8,
                         initiatorKeys: [], responderKeys: [.encryptionKey, .signingKey])),
    ]

    @Test("§2.2.3: the c1 example's Pairing Request and Response", arguments: specPDUs)
    func specExample(bytes: [UInt8], features: PairingFeatures) throws {
        let pdu = try SMPPDU(decoding: bytes)
        #expect(pdu == (bytes[0] == 0x01 ? .pairingRequest(features) : .pairingResponse(features)))
        #expect(pdu.encoded == bytes)
    }

    @Test("A command one octet short or one octet long is Invalid Parameters naming the command",
          arguments: SMPCommandTable.rows)
    func wrongLength(_ row: SMPCommandRow) {
        for bytes in [Array(row.sample.dropLast()), row.sample + [0x00]] {
            let error = #expect(throws: SMPDecodingError.self) { try SMPPDU(decoding: bytes) }
            #expect(error?.reason == .invalidParameters)
            #expect(error?.description.contains(row.name) == true, "\(error?.description ?? "no error")")
            #expect(error?.unknownCode == nil)
        }
    }

    @Test("An empty PDU is refused")
    func empty() {
        let error = #expect(throws: SMPDecodingError.self) { try SMPPDU(decoding: []) }
        #expect(error?.code == nil)
        #expect(error?.reason == .invalidParameters)
    }

    @Test("A code Table 3.4 does not assign is Command Not Supported", arguments: [UInt8(0x00), 0x0F, 0x10, 0x7F, 0xFF])
    func unknownCode(_ code: UInt8) {
        let error = #expect(throws: SMPDecodingError.self) { try SMPPDU(decoding: [code, 0x00]) }
        #expect(error?.reason == .commandNotSupported)
        #expect(error?.unknownCode == code)
    }

    @Test("Reserved values are Invalid Parameters", arguments: [
        // IO Capability 0x05–0xFF are reserved (Table 3.5).
        ("IO Capability 0x05", [UInt8](arrayLiteral: 0x01, 0x05, 0x00, 0x01, 0x10, 0x00, 0x00), "Pairing Request"),
        // OOB data flag 0x02–0xFF are reserved (Table 3.6).
        ("OOB flag 0x02", [0x02, 0x03, 0x02, 0x01, 0x10, 0x00, 0x00], "Pairing Response"),
        // Maximum Encryption Key Size is 7 to 16 octets (§3.5.1).
        ("key size 6", [0x01, 0x03, 0x00, 0x01, 0x06, 0x00, 0x00], "Pairing Request"),
        ("key size 17", [0x02, 0x03, 0x00, 0x01, 0x11, 0x00, 0x00], "Pairing Response"),
        // AddrType 0x02–0xFF are reserved (§3.6.5).
        ("AddrType 0x02", [0x09, 0x02, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0], "Identity Address Information"),
        // Notification Type 0x05–0xFF are reserved (Table 3.8).
        ("Notification Type 0x05", [0x0E, 0x05], "Pairing Keypress Notification"),
    ])
    func reservedValues(what: String, bytes: [UInt8], command: String) {
        let error = #expect(throws: SMPDecodingError.self, "\(what)") { try SMPPDU(decoding: bytes) }
        #expect(error?.reason == .invalidParameters)
        #expect(error?.description.contains(command) == true, "\(error?.description ?? "no error")")
    }

    @Test("Key sizes 7 and 16 and Notification Types 0–4 are accepted")
    func boundaryValues() throws {
        for size: UInt8 in [7, 16] {
            _ = try SMPPDU(decoding: [0x01, 0x03, 0x00, 0x01, size, 0x00, 0x00])
        }
        for type: UInt8 in 0...4 {
            #expect(try SMPPDU(decoding: [0x0E, type]) == .keypressNotification(type))
        }
    }
}
