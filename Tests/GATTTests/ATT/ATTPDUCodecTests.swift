@testable import HCIPackets
@testable import GATT
import SeededRandom
import Testing

/// Round trips for every PDU case, typed errors for malformed PDUs, and fuzzing.
@Suite("ATT PDU codec")
struct ATTPDUCodecTests {
    static let uuid128 = BluetoothUUID("A0B40001-926D-4D61-98DF-8C5C62EE53B3") ?? .base

    /// One (or more) sample of every case of `ATTPDU`.
    static let samples: [ATTPDU] = [
        .errorResponse(request: .writeRequest, handle: 0x0102, error: .writeNotPermitted),
        .exchangeMTURequest(clientRxMTU: 23),
        .exchangeMTUResponse(serverRxMTU: 0xFFFF),
        .findInformationRequest(startHandle: 1, endHandle: 0xFFFF),
        .findInformationResponse([.init(handle: 1, type: .primaryService), .init(handle: 2, type: .characteristic)]),
        .findInformationResponse([.init(handle: 9, type: uuid128)]),
        .findByTypeValueRequest(startHandle: 1, endHandle: 9, type: 0x2800, value: uuid128.attBytes),
        .findByTypeValueResponse([.init(foundHandle: 1, groupEndHandle: 5), .init(foundHandle: 6, groupEndHandle: 0xFFFF)]),
        .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .databaseHash),
        .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: uuid128),
        .readByTypeResponse([.init(handle: 7, value: Array(repeating: 0xAB, count: 16))]),
        .readByTypeResponse([.init(handle: 7, value: []), .init(handle: 8, value: [])]),
        .readRequest(handle: 0xFFFF),
        .readResponse(value: []),
        .readResponse(value: Array(0..<22)),
        .readBlobRequest(handle: 3, offset: 0xFFFF),
        .readBlobResponse(value: [9]),
        .readMultipleRequest(handles: [1, 2, 3]),
        .readMultipleResponse(values: [1, 2, 3]),
        .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .secondaryService),
        .readByGroupTypeResponse([.init(handle: 1, endGroupHandle: 0xFFFF, value: uuid128.attBytes)]),
        .writeRequest(handle: 1, value: []),
        .writeResponse,
        .writeCommand(handle: 1, value: Array(0..<20)),
        .signedWriteCommand(handle: 1, value: [], signature: Array(repeating: 7, count: 12)),
        .prepareWriteRequest(handle: 1, offset: 0, value: []),
        .prepareWriteResponse(handle: 1, offset: 500, value: [1]),
        .executeWriteRequest(.cancel),
        .executeWriteResponse,
        .handleValueNotification(handle: 0x12, value: []),
        .handleValueIndication(handle: 0x12, value: [1, 2, 3]),
        .handleValueConfirmation,
        .readMultipleVariableRequest(handles: [1, 2]),
        .readMultipleVariableResponse(values: [[], [1], [2, 3]]),
        .multipleHandleValueNotification([.init(handle: 1, value: []), .init(handle: 2, value: [5])]),
        .unknown(opcode: ATTOpcode(0xFF), parameters: []),
    ]

    @Test("Every case encodes and decodes back to itself", arguments: samples)
    func roundTrip(_ pdu: ATTPDU) throws {
        let bytes = pdu.encoded()
        #expect(bytes.first == pdu.opcode.rawValue)
        #expect(try ATTPDU(decoding: bytes) == pdu)
        #expect(!pdu.description.isEmpty)
    }

    @Test("Malformed PDUs give typed errors naming the PDU and field", arguments: [
        ("", "ATT PDU: Attribute Opcode: needs 1 octet(s) at offset 0, only 0 left"),
        ("0A 03", "Read Request (0x0A): Attribute Handle: needs 2 octet(s) at offset 1, only 1 left"),
        ("0A 03 00 00", "Read Request (0x0A): end of PDU: 1 unexpected octet(s) after it"),
        ("09 04 0100 02", "Read By Type Response (0x09): Attribute Data List: 3 octet(s) is not one or more entries of Length 4"),
        ("09 01 0100", "Read By Type Response (0x09): Length: 1; each entry holds a 2-octet handle"),
        ("11 03", "Read By Group Type Response (0x11): Length: 3; each entry holds two 2-octet handles"),
        ("08 0100 FFFF 00 28 00", "Read By Type Request (0x08): Attribute Type: 3 octet(s); a UUID here is 2 or 16"),
        ("10 0100 FFFF", "Read By Group Type Request (0x10): Attribute Group Type: 0 octet(s); a UUID here is 2 or 16"),
        ("05 03 0100 0028", "Find Information Response (0x05): Format: 0x03; 0x01 is 16-bit UUIDs, 0x02 128-bit"),
        ("05 02 0100 0028", "Find Information Response (0x05): Information Data: 4 octet(s) is not one or more entries of 18"),
        ("07 0100 05", "Find By Type Value Response (0x07): Handles Information List: 3 octet(s); needs one or more entries of 4"),
        ("0E 0100", "Read Multiple Request (0x0E): Set Of Handles: 2 octet(s); needs two or more 2-octet handles"),
        ("18 02", "Execute Write Request (0x18): Flags: 0x02 is reserved (0x00 cancels, 0x01 writes)"),
        ("D2 0100 0102", "Signed Write Command (0xD2): Authentication Signature: needs 12 octet(s) at offset 3, only 2 left"),
        ("23 1200 0500 01", "Multiple Handle Value Notification (0x23): Attribute Value: needs 5 octet(s) at offset 5, only 1 left"),
        ("13 00", "Write Response (0x13): end of PDU: 1 unexpected octet(s) after it"),
    ])
    func malformed(hex: String, message: String) {
        switch attDecode(attHex(hex)) {
        case .success(let pdu): Issue.record("\(hex) decoded as \(pdu)")
        case .failure(let error): #expect(error.description == message)
        }
    }

    /// §3.4.4.12: the Length Value Tuple List is cut to ATT_MTU – 1 octets, which may shorten the last value
    /// and even split its Value Length (the att-server fuzzer's find): the values before it decode.
    @Test("Read Multiple Variable Response cut short: a short last value, a lone length octet")
    func readMultipleVariableResponseCutShort() throws {
        #expect(try ATTPDU(decoding: [0x21, 0x05, 0x00, 0x41, 0x42]) == .readMultipleVariableResponse(values: [[0x41, 0x42]]))
        #expect(try ATTPDU(decoding: [0x21, 0x01, 0x00, 0x41, 0x05]) == .readMultipleVariableResponse(values: [[0x41]]))
    }

    /// Our server ends the list rather than send a lone length octet, at the smallest ATT_MTU.
    @Test("Our Read Multiple Variable Response never ends in a lone length octet")
    func ourReadMultipleVariableResponseEndsOnAWholeLength() throws {
        var server = try ATTServerTests.server()
        // Battery Level (1 octet) and Body Sensor Location (1 octet), then the Device Name: 3 + 3 + 2 + name.
        let reply = server.handle(ATTPDU.readMultipleVariableRequest(handles: [0x0019, 0x0020, 0x0003, 0x0019, 0x0019, 0x0019, 0x0019]).encoded())
        let bytes = try #require(reply)
        #expect(bytes.count <= 23)
        #expect(bytes.first == 0x21)
        var offset = 1
        while offset < bytes.count {
            #expect(offset + 2 <= bytes.count, "a lone length octet at \(offset) of \(bytes)")
            offset += 2 + Int(bytes[offset]) + Int(bytes[offset + 1 < bytes.count ? offset + 1 : offset]) << 8
        }
    }

    @Test("20,000 random PDUs: never a trap; whatever decodes round-trips")
    func fuzz() {
        var generator = SplitMix64(seed: 0xA77)
        let opcodes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,
                                0x10, 0x11, 0x12, 0x13, 0x16, 0x17, 0x18, 0x19, 0x1B, 0x1D, 0x1E, 0x20, 0x21, 0x23, 0x52, 0xD2]
        var decoded = 0
        for round in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Mostly known opcodes, with small lengths that hit the layouts' edges.
            if !bytes.isEmpty, round % 4 != 0 { bytes[0] = opcodes[Int.random(in: 0..<opcodes.count, using: &generator)] }
            if bytes.count > 1, round % 3 == 0 { bytes[1] = UInt8.random(in: 0...20, using: &generator) }
            if case .success(let pdu) = attDecode(bytes) {
                decoded += 1
                #expect(attDecode(pdu.encoded()) == .success(pdu))
            }
        }
        #expect(decoded > 1_000)
    }

    @Test("Feeding a PDU one octet at a time never traps")
    func growing() {
        let bytes = attHex("11 06 0100 0500 0018 0600 0900 0118")
        for end in 0...bytes.count { _ = attDecode(Array(bytes[0..<end])) }
        guard case .success = attDecode(bytes) else { Issue.record("the whole PDU did not decode"); return }
    }
}
