import Testing
@testable import HCIPackets
@testable import GATT

/// Byte vectors written from the PDU layouts of Core v5.4 Vol 3 Part F §3.4.
@Suite("ATT PDU vectors")
struct ATTPDUVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let pdu: ATTPDU
        /// Every proper prefix must fail to decode (fixed-length PDUs and ones whose lists would be cut mid-entry).
        let prefixesFail: Bool
        var testDescription: String { name }
    }

    static let nus = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E") ?? .base
    static let nusLE = attHex("9E CA DC 24 0E E5 A9 E0 93 F3 A3 B5 01 00 40 6E")

    static let vectors: [Vector] = [
        Vector(name: "Exchange MTU Request, 517", bytes: attHex("02 05 02"),
               pdu: .exchangeMTURequest(clientRxMTU: 517), prefixesFail: true),
        Vector(name: "Exchange MTU Response, 247", bytes: attHex("03 F7 00"),
               pdu: .exchangeMTUResponse(serverRxMTU: 247), prefixesFail: true),
        Vector(name: "Error Response: Read Request 0x0003, Insufficient Authentication", bytes: attHex("01 0A 03 00 05"),
               pdu: .errorResponse(request: .readRequest, handle: 3, error: .insufficientAuthentication), prefixesFail: true),
        Vector(name: "Read By Group Type Request, primary services", bytes: attHex("10 01 00 FF FF 00 28"),
               pdu: .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .primaryService), prefixesFail: true),
        Vector(name: "Read By Group Type Response, 16-bit UUIDs",
               bytes: attHex("11 06 0100 0500 0018 0600 0900 0118"),
               pdu: .readByGroupTypeResponse([
                   .init(handle: 1, endGroupHandle: 5, value: [0x00, 0x18]),
                   .init(handle: 6, endGroupHandle: 9, value: [0x01, 0x18]),
               ]), prefixesFail: false),
        Vector(name: "Read By Group Type Response, 128-bit UUID",
               bytes: attHex("11 14 0A00 0F00") + nusLE,
               pdu: .readByGroupTypeResponse([.init(handle: 0x0A, endGroupHandle: 0x0F, value: nusLE)]), prefixesFail: true),
        Vector(name: "Read By Type Request, characteristic declarations", bytes: attHex("08 01 00 05 00 03 28"),
               pdu: .readByTypeRequest(startHandle: 1, endHandle: 5, type: .characteristic), prefixesFail: true),
        Vector(name: "Read By Type Request, 128-bit type", bytes: attHex("08 01 00 FF FF") + nusLE,
               // Its 7-octet prefix is a valid request with a 16-bit type.
               pdu: .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: nus), prefixesFail: false),
        Vector(name: "Read By Type Response, characteristic declarations with 16-bit UUIDs",
               bytes: attHex("09 07 0200 02 0300 002A 0400 02 0500 012A"),
               pdu: .readByTypeResponse([
                   .init(handle: 2, value: attHex("02 0300 002A")),
                   .init(handle: 4, value: attHex("02 0500 012A")),
               ]), prefixesFail: false),
        Vector(name: "Read By Type Response, characteristic declaration with a 128-bit UUID",
               bytes: attHex("09 15 0B00 18 0C00") + nusLE,
               pdu: .readByTypeResponse([.init(handle: 0x0B, value: attHex("18 0C00") + nusLE)]), prefixesFail: true),
        Vector(name: "Find Information Request", bytes: attHex("04 04 00 05 00"),
               pdu: .findInformationRequest(startHandle: 4, endHandle: 5), prefixesFail: true),
        Vector(name: "Find Information Response, 16-bit", bytes: attHex("05 01 0400 0229 0500 0129"),
               pdu: .findInformationResponse([
                   .init(handle: 4, type: .clientCharacteristicConfiguration),
                   .init(handle: 5, type: .characteristicUserDescription),
               ]), prefixesFail: false),
        Vector(name: "Find Information Response, 128-bit", bytes: attHex("05 02 0C00") + nusLE,
               pdu: .findInformationResponse([.init(handle: 0x0C, type: nus)]), prefixesFail: true),
        Vector(name: "Find By Type Value Request, Battery service", bytes: attHex("06 0100 FFFF 0028 0F18"),
               pdu: .findByTypeValueRequest(startHandle: 1, endHandle: 0xFFFF, type: 0x2800, value: [0x0F, 0x18]),
               prefixesFail: false),
        Vector(name: "Find By Type Value Response", bytes: attHex("07 1000 1300"),
               pdu: .findByTypeValueResponse([.init(foundHandle: 0x10, groupEndHandle: 0x13)]), prefixesFail: true),
        Vector(name: "Read Request", bytes: attHex("0A 03 00"), pdu: .readRequest(handle: 3), prefixesFail: true),
        Vector(name: "Read Response", bytes: attHex("0B 48 69"), pdu: .readResponse(value: [0x48, 0x69]), prefixesFail: false),
        Vector(name: "Read Blob Request", bytes: attHex("0C 0300 1600"),
               pdu: .readBlobRequest(handle: 3, offset: 22), prefixesFail: true),
        Vector(name: "Read Blob Response", bytes: attHex("0D 01 02"), pdu: .readBlobResponse(value: [1, 2]), prefixesFail: false),
        Vector(name: "Read Multiple Request", bytes: attHex("0E 0300 0500"),
               pdu: .readMultipleRequest(handles: [3, 5]), prefixesFail: true),
        Vector(name: "Read Multiple Response", bytes: attHex("0F 5A 01"),
               pdu: .readMultipleResponse(values: [0x5A, 0x01]), prefixesFail: false),
        Vector(name: "Write Request", bytes: attHex("12 1300 0100"),
               pdu: .writeRequest(handle: 0x13, value: [1, 0]), prefixesFail: false),
        Vector(name: "Write Response", bytes: attHex("13"), pdu: .writeResponse, prefixesFail: true),
        Vector(name: "Write Command", bytes: attHex("52 1500 AABB"),
               pdu: .writeCommand(handle: 0x15, value: [0xAA, 0xBB]), prefixesFail: false),
        Vector(name: "Signed Write Command", bytes: attHex("D2 1500 AA 0102030405060708090A0B0C"),
               pdu: .signedWriteCommand(handle: 0x15, value: [0xAA], signature: Array(1...12)), prefixesFail: false),
        Vector(name: "Prepare Write Request", bytes: attHex("16 1500 1200 0102"),
               pdu: .prepareWriteRequest(handle: 0x15, offset: 18, value: [1, 2]), prefixesFail: false),
        Vector(name: "Prepare Write Response", bytes: attHex("17 1500 1200 0102"),
               pdu: .prepareWriteResponse(handle: 0x15, offset: 18, value: [1, 2]), prefixesFail: false),
        Vector(name: "Execute Write Request, write", bytes: attHex("18 01"), pdu: .executeWriteRequest(.write), prefixesFail: true),
        Vector(name: "Execute Write Request, cancel", bytes: attHex("18 00"), pdu: .executeWriteRequest(.cancel), prefixesFail: true),
        Vector(name: "Execute Write Response", bytes: attHex("19"), pdu: .executeWriteResponse, prefixesFail: true),
        Vector(name: "Handle Value Notification, Battery Level 90", bytes: attHex("1B 1200 5A"),
               pdu: .handleValueNotification(handle: 0x12, value: [0x5A]), prefixesFail: false),
        Vector(name: "Handle Value Indication", bytes: attHex("1D 0300 0100FFFF"),
               pdu: .handleValueIndication(handle: 3, value: [1, 0, 0xFF, 0xFF]), prefixesFail: false),
        Vector(name: "Handle Value Confirmation", bytes: attHex("1E"), pdu: .handleValueConfirmation, prefixesFail: true),
        Vector(name: "Read Multiple Variable Request", bytes: attHex("20 0300 1200"),
               pdu: .readMultipleVariableRequest(handles: [3, 0x12]), prefixesFail: true),
        Vector(name: "Read Multiple Variable Response", bytes: attHex("21 0100 5A 0300 414243"),
               pdu: .readMultipleVariableResponse(values: [[0x5A], [0x41, 0x42, 0x43]]), prefixesFail: false),
        Vector(name: "Multiple Handle Value Notification", bytes: attHex("23 1200 0100 5A 1500 0200 0102"),
               pdu: .multipleHandleValueNotification([.init(handle: 0x12, value: [0x5A]), .init(handle: 0x15, value: [1, 2])]),
               prefixesFail: false),
        Vector(name: "Unknown opcode 0x3F", bytes: attHex("3F 0102"),
               pdu: .unknown(opcode: ATTOpcode(0x3F), parameters: [1, 2]), prefixesFail: false),
    ]

    @Test("Decodes to the PDU and encodes back to the same bytes", arguments: vectors)
    func vector(_ vector: Vector) throws {
        #expect(try ATTPDU(decoding: vector.bytes) == vector.pdu)
        #expect(vector.pdu.encoded() == vector.bytes)
    }

    @Test("Every proper prefix is a typed error or a PDU that round-trips; never a trap", arguments: vectors)
    func prefixes(_ vector: Vector) {
        for length in 0..<vector.bytes.count {
            let prefix = Array(vector.bytes.prefix(length))
            switch attDecode(prefix) {
            case .failure(let error):
                #expect(!error.description.isEmpty)
                if length > 0 { #expect(error.opcode?.rawValue == prefix[0]) }
            case .success(let pdu):
                #expect(!vector.prefixesFail, "prefix \(prefix) of \(vector.name) decoded as \(pdu)")
                #expect(attDecode(pdu.encoded()) == .success(pdu))
            }
        }
    }

    @Test("Classification: requests, responses, commands and expected responses")
    func classification() {
        #expect(ATTPDU.readRequest(handle: 1).isRequest)
        #expect(ATTPDU.readRequest(handle: 1).expectedResponseOpcode == .readResponse)
        #expect(ATTPDU.exchangeMTURequest(clientRxMTU: 23).expectedResponseOpcode == .exchangeMTUResponse)
        #expect(ATTPDU.readMultipleVariableRequest(handles: [1, 2]).expectedResponseOpcode == .readMultipleVariableResponse)
        #expect(ATTPDU.handleValueIndication(handle: 1, value: []).expectedResponseOpcode == .handleValueConfirmation)
        #expect(ATTPDU.errorResponse(request: .readRequest, handle: 0, error: .invalidHandle).isResponse)
        #expect(ATTPDU.writeCommand(handle: 1, value: []).isCommand)
        #expect(ATTPDU.signedWriteCommand(handle: 1, value: [], signature: Array(repeating: 0, count: 12)).isCommand)
        #expect(ATTOpcode.signedWriteCommand.hasAuthenticationSignature)
        #expect(!ATTPDU.handleValueNotification(handle: 1, value: []).isRequest)
        #expect(!ATTPDU.handleValueNotification(handle: 1, value: []).isResponse)
        #expect(ATTPDU.handleValueNotification(handle: 1, value: []).expectedResponseOpcode == nil)
        #expect(ATTOpcode.writeRequest.isServerBound && ATTOpcode.handleValueConfirmation.isServerBound)
        #expect(!ATTOpcode.readResponse.isServerBound && !ATTOpcode.handleValueIndication.isServerBound)
        #expect(ATTOpcode.readByTypeResponse.description == "Read By Type Response (0x09)")
    }

    @Test("Error codes print as number and name")
    func errorCodes() {
        #expect(ATTErrorCode.insufficientAuthentication.description == "0x05 Insufficient Authentication")
        #expect(ATTErrorCode.valueNotAllowed.description == "0x13 Value Not Allowed")
        #expect(ATTErrorCode(0x80).description == "0x80 Application Error")
        #expect(ATTErrorCode(0x9F).isApplicationError && !ATTErrorCode(0xA0).isApplicationError)
        #expect(ATTErrorCode(0xA0).name == "Reserved for future use")
        #expect(ATTErrorCode.writeRequestRejected.description == "0xFC Write Request Rejected")
        #expect(ATTErrorCode.outOfRange.description == "0xFF Out of Range")
        #expect(ATTErrorCode(0xE0).name == "Common Profile and Service Error")
        #expect(ATTErrorCode.allNamed.count == 0x13 + 4)
        #expect(ATTErrorCode.allNamed.allSatisfy { $0.name != "Reserved for future use" })
        #expect(ATTErrorCode.application(0x85) == ATTErrorCode(0x85) && ATTErrorCode.application(0x20) == nil)
    }
}
