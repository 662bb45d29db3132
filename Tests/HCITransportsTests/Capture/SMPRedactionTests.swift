import Testing
@testable import Roles

/// The secret fields of SMP PDUs (Core v5.4 Vol 3 Part H §3.5–3.6) in a capture: each replaced by the marker at
/// exactly its octets, everything else as it passed. The PDUs are spelled out from the spec's layout: an ACL
/// header (Connection_Handle 0x040 with its boundary flags, Data_Total_Length), the L2CAP basic header
/// (Length, Channel ID 0x0006), the SMP code, its parameters. In an H4 record the indicator (0x02) comes
/// first, so a PDU's parameters start at octet 10.
@Suite struct SMPRedactionTests {
    typealias R = CapturedRecords

    /// An SMP PDU with code `code` and 16 octets of `value`, host to controller (first non-flushable).
    static func pdu16(code: UInt8, _ value: [UInt8], boundary: UInt8 = 0x00) -> [UInt8] {
        [0x02, 0x40, boundary, 21, 0, 17, 0, 0x06, 0x00, code] + value
    }

    /// The parameters of a 16-octet SMP PDU in its H4 record.
    static let value16 = 10..<26

    @Test func pairingConfirmValueIsRedacted() throws {
        let pdu = Self.pdu16(code: 0x03, R.key16)
        let record = try R.h4(pdu)
        #expect(Array(record[Self.value16]) == R.marker16)
        #expect(record == R.redacted(pdu, [Self.value16]))
    }

    @Test func pairingRandomValueIsRedacted() throws {
        let pdu = Self.pdu16(code: 0x04, R.key16, boundary: 0x20)
        let record = try R.h4(pdu, received: true)
        #expect(Array(record[Self.value16]) == R.marker16)
        #expect(record == R.redacted(pdu, [Self.value16]))
    }

    @Test func encryptionInformationLongTermKeyIsRedacted() throws {
        let pdu = Self.pdu16(code: 0x06, R.key16, boundary: 0x20)
        let record = try R.h4(pdu, received: true)
        #expect(Array(record[Self.value16]) == R.marker16)
        #expect(record == R.redacted(pdu, [Self.value16]))
    }

    @Test func identityInformationIdentityResolvingKeyIsRedacted() throws {
        let pdu = Self.pdu16(code: 0x08, R.key16)
        let record = try R.h4(pdu)
        #expect(Array(record[Self.value16]) == R.marker16)
        #expect(record == R.redacted(pdu, [Self.value16]))
    }

    @Test func signingInformationSignatureKeyIsRedacted() throws {
        let pdu = Self.pdu16(code: 0x0A, R.key16)
        let record = try R.h4(pdu)
        #expect(Array(record[Self.value16]) == R.marker16)
        #expect(record == R.redacted(pdu, [Self.value16]))
    }

    @Test func pairingDHKeyCheckIsRedacted() throws {
        let pdu = Self.pdu16(code: 0x0D, R.key16, boundary: 0x20)
        let record = try R.h4(pdu, received: true)
        #expect(Array(record[Self.value16]) == R.marker16)
        #expect(record == R.redacted(pdu, [Self.value16]))
    }

    /// What is not secret passes as it is: Pairing Request, Central Identification (EDIV and Rand travel in clear
    /// in LL_ENC_REQ), Identity Address Information, Pairing Public Key (in three fragments, as over a 27-octet
    /// LE buffer), Security Request, Pairing Failed, and 16 octets of ATT (channel 0x0004) that look like a key.
    @Test func fieldsThatAreNotSecretPassUnchanged() throws {
        let publicKey: [UInt8] = Array(0..<64)
        let keyPDU: [UInt8] = [65, 0, 0x06, 0x00, 0x0C] + publicKey
        let packets: [(h4: [UInt8], received: Bool)] = [
            ([0x02, 0x40, 0x00, 11, 0, 7, 0, 0x06, 0x00, 0x01, 0x04, 0x00, 0x2D, 0x10, 0x03, 0x03], false),
            ([0x02, 0x40, 0x20, 15, 0, 11, 0, 0x06, 0x00, 0x07, 0x34, 0x12] + R.key16.prefix(8), true),
            ([0x02, 0x40, 0x20, 12, 0, 8, 0, 0x06, 0x00, 0x09, 0x01, 0x21, 0x00, 0x4C, 0x49, 0x48, 0xC0], true),
            ([0x02, 0x40, 0x00, 27, 0] + keyPDU[0..<27], false),
            ([0x02, 0x40, 0x10, 27, 0] + keyPDU[27..<54], false),
            ([0x02, 0x40, 0x10, 15, 0] + keyPDU[54...], false),
            ([0x02, 0x40, 0x20, 6, 0, 2, 0, 0x06, 0x00, 0x0B, 0x0D], true),
            ([0x02, 0x40, 0x20, 6, 0, 2, 0, 0x06, 0x00, 0x05, 0x04], true),
            ([0x02, 0x40, 0x20, 21, 0, 17, 0, 0x04, 0x00, 0x0B] + R.key16, true),
        ]
        let records = try R.h4(packets)
        #expect(records == packets.map(\.h4))
    }

    /// An Encryption Information PDU split across two ACL fragments (a controller with a small LE buffer): the
    /// marker runs on in the continuation, from the key's sixth octet.
    @Test func aKeySplitAcrossFragmentsIsRedactedInEach() throws {
        let first: [UInt8] = [0x02, 0x40, 0x20, 10, 0, 17, 0, 0x06, 0x00, 0x06] + R.key16[0..<5]
        let second: [UInt8] = [0x02, 0x40, 0x10, 11, 0] + R.key16[5...]
        let records = try R.h4([(first, true), (second, true)])
        #expect(records == [R.redacted(first, [10..<15]), Array(second.prefix(5)) + Array("TEDREDACTED".utf8)])
    }

    /// The fragments split the L2CAP header itself; another connection's PDU and the other direction come in
    /// between; both streams' keys are found.
    @Test func streamsAreFollowedPerHandleAndDirection() throws {
        let packets: [(h4: [UInt8], received: Bool)] = [
            ([0x02, 0x40, 0x00, 2, 0, 17, 0], false),                                // handle 0x040: Length only
            ([0x02, 0x41, 0x00, 21, 0, 17, 0, 0x06, 0x00, 0x08] + R.key16, false),   // handle 0x041: Identity Information
            ([0x02, 0x40, 0x20, 6, 0, 2, 0, 0x04, 0x00, 0x0A, 0x01], true),         // handle 0x040, the other way: ATT
            ([0x02, 0x40, 0x10, 19, 0, 0x06, 0x00, 0x06] + R.key16, false),          // handle 0x040 goes on: CID, LTK
        ]
        let records = try R.h4(packets)
        #expect(records[0] == packets[0].h4)
        #expect(records[1] == R.redacted(packets[1].h4, [10..<26]))
        #expect(records[2] == packets[2].h4)
        #expect(records[3] == R.redacted(packets[3].h4, [8..<24]))
    }

    /// A continuation whose start the capture never saw says nothing about what it continues: left as it is.
    @Test func aContinuationWithoutItsStartPassesUnchanged() throws {
        let orphan: [UInt8] = [0x02, 0x40, 0x10, 16, 0] + R.key16
        #expect(try R.h4(orphan) == orphan)
    }

    /// `--capture-keys`: every octet as it passed.
    @Test func keptKeysPassUnchanged() throws {
        let pdus = [0x03, 0x04, 0x06, 0x08, 0x0A, 0x0D].map { (Self.pdu16(code: UInt8($0), R.key16), false) }
        #expect(try R.h4(pdus, keys: .kept) == pdus.map(\.0))
    }
}
