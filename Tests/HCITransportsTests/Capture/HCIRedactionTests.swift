import Foundation
import Testing
@testable import EventLoops
@testable import HCITransports

/// The secret fields of HCI commands and events (Core v5.4 Vol 4 Part E §7) in a capture: each replaced by the
/// marker at exactly its octets, everything else as it passed. Each packet is spelled out from the spec's
/// layout; in an H4 record a command's parameters start at octet 4 (indicator, OpCode, length) and an event's
/// at octet 3 (indicator, code, length).
@Suite struct HCIRedactionTests {
    typealias R = CapturedRecords

    /// LE Enable Encryption (§7.8.24): Connection_Handle, Random_Number, Encrypted_Diversifier, Long_Term_Key —
    /// only the key is secret (Rand and EDIV go in clear in LL_ENC_REQ).
    @Test func leEnableEncryptionLongTermKeyIsRedacted() throws {
        let rand: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let command: [UInt8] = [0x01, 0x19, 0x20, 28, 0x40, 0x00] + rand + [0x34, 0x12] + R.key16
        let record = try R.h4(command)
        #expect(Array(record[16..<32]) == R.marker16)
        #expect(record == R.redacted(command, [16..<32]))
    }

    /// LE Long Term Key Request Reply (§7.8.25): Connection_Handle, Long_Term_Key.
    @Test func leLongTermKeyRequestReplyLongTermKeyIsRedacted() throws {
        let command: [UInt8] = [0x01, 0x1A, 0x20, 18, 0x40, 0x00] + R.key16
        let record = try R.h4(command)
        #expect(Array(record[6..<22]) == R.marker16)
        #expect(record == R.redacted(command, [6..<22]))
    }

    /// LE Encrypt (§7.8.22): Key, Plaintext_Data.
    @Test func leEncryptKeyAndPlaintextAreRedacted() throws {
        let command: [UInt8] = [0x01, 0x17, 0x20, 32] + R.key16 + Array(0x10...0x1F)
        let record = try R.h4(command)
        #expect(Array(record[4..<20]) == R.marker16 && Array(record[20..<36]) == R.marker16)
        #expect(record == R.redacted(command, [4..<20, 20..<36]))
    }

    /// LE Encrypt's Command Complete (§7.7.14 with §7.8.22's return parameters): Num_HCI_Command_Packets,
    /// Command_Opcode, Status, Encrypted_Data.
    @Test func leEncryptCompleteEncryptedDataIsRedacted() throws {
        let event: [UInt8] = [0x04, 0x0E, 20, 0x01, 0x17, 0x20, 0x00] + R.key16
        let record = try R.h4(event, received: true)
        #expect(Array(record[7..<23]) == R.marker16)
        #expect(record == R.redacted(event, [7..<23]))
    }

    /// LE Rand's Command Complete (§7.8.23): Status, Random_Number (8 octets).
    @Test func leRandCompleteRandomNumberIsRedacted() throws {
        let event: [UInt8] = [0x04, 0x0E, 12, 0x01, 0x18, 0x20, 0x00] + R.key16.prefix(8)
        let record = try R.h4(event, received: true)
        #expect(Array(record[7..<15]) == Array("REDACTED".utf8))
        #expect(record == R.redacted(event, [7..<15]))
    }

    /// LE Add Device To Resolving List (§7.8.38): Peer_Identity_Address_Type, Peer_Identity_Address, Peer_IRK,
    /// Local_IRK.
    @Test func leAddDeviceToResolvingListIRKsAreRedacted() throws {
        let command: [UInt8] = [0x01, 0x27, 0x20, 39, 0x01, 0x21, 0x00, 0x4C, 0x49, 0x48, 0xC0] + R.key16 + Array(0x10...0x1F)
        let record = try R.h4(command)
        #expect(Array(record[11..<27]) == R.marker16 && Array(record[27..<43]) == R.marker16)
        #expect(record == R.redacted(command, [11..<27, 27..<43]))
    }

    /// Link Key Request Reply (§7.1.10): BD_ADDR, Link_Key.
    @Test func linkKeyRequestReplyLinkKeyIsRedacted() throws {
        let command: [UInt8] = [0x01, 0x0B, 0x04, 22, 1, 2, 3, 4, 5, 6] + R.key16
        let record = try R.h4(command)
        #expect(Array(record[10..<26]) == R.marker16)
        #expect(record == R.redacted(command, [10..<26]))
    }

    /// PIN Code Request Reply (§7.1.12): BD_ADDR, PIN_Code_Length, PIN_Code (16 octets).
    @Test func pinCodeRequestReplyPINCodeIsRedacted() throws {
        let command: [UInt8] = [0x01, 0x0D, 0x04, 23, 1, 2, 3, 4, 5, 6, 4] + Array("1234".utf8) + [UInt8](repeating: 0, count: 12)
        let record = try R.h4(command)
        #expect(Array(record[11..<27]) == R.marker16)
        #expect(record == R.redacted(command, [11..<27]))
    }

    /// Link Key Notification (§7.7.24): BD_ADDR, Link_Key, Key_Type.
    @Test func linkKeyNotificationLinkKeyIsRedacted() throws {
        let event: [UInt8] = [0x04, 0x18, 23, 1, 2, 3, 4, 5, 6] + R.key16 + [0x08]
        let record = try R.h4(event, received: true)
        #expect(Array(record[9..<25]) == R.marker16)
        #expect(record == R.redacted(event, [9..<25]))
    }

    /// LE Generate DHKey Complete (LE Meta, §7.7.65.9): Subevent_Code 0x09, Status, DH_Key (32 octets).
    @Test func leGenerateDHKeyCompleteDHKeyIsRedacted() throws {
        let event: [UInt8] = [0x04, 0x3E, 34, 0x09, 0x00] + R.key16 + Array(0x10...0x1F)
        let record = try R.h4(event, received: true)
        #expect(Array(record[5..<37]) == R.marker16 + R.marker16)
        #expect(record == R.redacted(event, [5..<37]))
    }

    /// What is not secret passes as it is: the LE Long Term Key Request event (Connection_Handle, Random_Number,
    /// Encrypted_Diversifier), the Command Complete of LE Long Term Key Request Reply, Reset, another LE Meta
    /// subevent of DHKey Complete's length, and a Command Complete for an opcode with no secret return.
    @Test func packetsWithoutSecretsPassUnchanged() throws {
        let packets: [(h4: [UInt8], received: Bool)] = [
            ([0x04, 0x3E, 13, 0x05, 0x40, 0x00] + R.key16.prefix(8) + [0x34, 0x12], true),
            ([0x04, 0x0E, 6, 0x01, 0x1A, 0x20, 0x00, 0x40, 0x00], true),
            ([0x01, 0x03, 0x0C, 0], false),
            ([0x04, 0x3E, 34, 0x0A, 0x00] + R.key16 + R.key16, true),
            ([0x04, 0x0E, 20, 0x01, 0x09, 0x10, 0x00] + R.key16, true),
        ]
        #expect(try R.h4(packets) == packets.map(\.h4))
    }

    /// A command cut short (its parameters end five octets into the key: a malformed command a host sent) is
    /// redacted as far as it goes, and nothing else happens.
    @Test func aTruncatedCommandIsRedactedAsFarAsItGoes() throws {
        let command: [UInt8] = [0x01, 0x19, 0x20, 17, 0x40, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12] + R.key16.prefix(5)
        #expect(try R.h4(command) == R.redacted(command, [16..<21]))
    }

    /// `--capture-keys`: every octet as it passed.
    @Test func keptKeysPassUnchanged() throws {
        let packets: [(h4: [UInt8], received: Bool)] = [
            ([0x01, 0x19, 0x20, 28, 0x40, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12] + R.key16, false),
            ([0x01, 0x1A, 0x20, 18, 0x40, 0x00] + R.key16, false),
            ([0x04, 0x0E, 20, 0x01, 0x17, 0x20, 0x00] + R.key16, true),
        ]
        #expect(try R.h4(packets, keys: .kept) == packets.map(\.h4))
    }

    /// A monitor capture (a test case's) redacts the same fields on every controller index, in records written
    /// as packets and as raw monitor records; its records carry no indicator, so each field is one octet earlier.
    @Test func monitorCapturesAreRedactedOnEveryIndex() throws {
        let path = R.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try MonitorCapture(path: path, clock: VirtualTime.stepped().clock)
        let central = capture.controller(0, name: "central"), accessory = capture.controller(1, name: "lock")
        let enable: [UInt8] = [0x01, 0x19, 0x20, 28, 0x40, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0x34, 0x12] + R.key16
        let reply: [UInt8] = [0x01, 0x1A, 0x20, 18, 0x40, 0x00] + R.key16
        let smp: [UInt8] = [0x02, 0x40, 0x00, 21, 0, 17, 0, 0x06, 0x00, 0x06] + R.key16
        central.packet(try R.packet(h4: enable), received: false)
        accessory.packet(try R.packet(h4: reply), received: false)
        accessory.packet(try R.packet(h4: smp), received: false)
        capture.writer.writeMonitor(.aclReceived, index: 0, data: Array(smp.dropFirst()), unixMicroseconds: 0)
        capture.writer.close()
        let records = try R.records(path).map(\.data)
        let expected = [R.redacted(enable, [16..<32]), R.redacted(reply, [6..<22]), R.redacted(smp, [10..<26]), R.redacted(smp, [10..<26])]
        #expect(records == expected.map { Array($0.dropFirst()) })
    }
}
