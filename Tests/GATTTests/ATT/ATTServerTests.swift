@testable import HCIPackets
@testable import GATT
import SeededRandom
import Testing

/// The server against `GATTFixtures.standard()`, whose layout is
/// 0x0001–0x0005 GAP (name 0x0003, appearance 0x0005), 0x0006–0x000D GATT (Service
/// Changed 0x0008 + CCCD 0x0009, Client Supported Features 0x000B, Database Hash 0x000D),
/// 0x000E–0x0016 Device Information, 0x0017–0x001A Battery (level 0x0019, CCCD 0x001A),
/// 0x001B–0x0020 Heart Rate (measurement 0x001D + CCCD 0x001E, location 0x0020),
/// 0x0021–0x0024 Health Thermometer (0x0023 + CCCD 0x0024), 0x0025–0x0034 the 128-bit
/// custom service (long value 0x0027 + user description 0x0028, write-only 0x002A,
/// encrypted read 0x002C, authenticated write 0x002E, reliable 0x0030 + extended properties
/// 0x0031, notify/indicate 0x0033 + CCCD 0x0034) and 0x0035–0x0037 the handler service (0x0037).
@Suite("ATT server")
struct ATTServerTests {
    static func server(maximumMTU: Int = 517, box: GATTFixtures.Box = GATTFixtures.Box()) throws -> ATTServer {
        ATTServer(database: try GATTFixtures.standard(box: box), maximumMTU: maximumMTU)
    }

    /// The server's response to `request`, decoded.
    static func ask(_ server: inout ATTServer, _ request: ATTPDU) throws -> ATTPDU? {
        guard let bytes = server.handle(request.encoded()) else { return nil }
        return try ATTPDU(decoding: bytes)
    }

    static func error(_ request: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(request: request, handle: handle, error: code)
    }

    // MARK: MTU

    /// Found by the att-server fuzzer: a Prepare Write Request longer than the ATT_MTU was echoed in a 29-octet
    /// response at an ATT_MTU of 23. No PDU may exceed the ATT_MTU (Vol 3 Part F §3.2.9).
    @Test("A request longer than the ATT_MTU gets Invalid PDU, never a response past the ATT_MTU")
    func requestsLongerThanTheMTUAreInvalid() throws {
        var server = try Self.server()
        let long = ATTPDU.prepareWriteRequest(handle: 0x0027, offset: 0, value: [UInt8](repeating: 0x41, count: 24))
        #expect(long.encoded().count == 29)
        let reply = server.handle(long.encoded())
        let answer = try #require(reply)
        #expect(answer.count <= 23)
        #expect(try ATTPDU(decoding: answer) == .errorResponse(request: .prepareWriteRequest, handle: 0, error: .invalidPDU))
        // A command that long is ignored; one that fits is handled as before.
        let command = ATTPDU.writeCommand(handle: 0x0027, value: [UInt8](repeating: 0x41, count: 21)).encoded()
        #expect(server.handle(command) == nil)
        let fits = ATTPDU.prepareWriteRequest(handle: 0x0027, offset: 0, value: [UInt8](repeating: 0x41, count: 18))
        #expect(try Self.ask(&server, fits) == .prepareWriteResponse(handle: 0x0027, offset: 0, value: [UInt8](repeating: 0x41, count: 18)))
    }

    @Test("Exchange MTU: answers with its maximum and adopts min(client, server), at least 23")
    func exchangeMTU() throws {
        var server = try Self.server(maximumMTU: 100)
        #expect(server.mtu == 23)
        #expect(server.handle(attHex("02 05 02")) == attHex("03 64 00"))
        #expect(server.mtu == 100)
        var small = try Self.server()
        let reply = small.reply(to: attHex("02 0A 00"))
        #expect(reply.response == attHex("03 05 02"))
        #expect(small.mtu == 23 && reply.events == [.mtuExchanged(23)])
        var mid = try Self.server()
        _ = mid.handle(attHex("02 F7 00"))
        #expect(mid.mtu == 247)
    }

    // MARK: Find Information

    @Test("Find Information: 16-bit pairs up to ATT_MTU – 2, 128-bit pairs alone, format changes end the list")
    func findInformation() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .findInformationRequest(startHandle: 1, endHandle: 0xFFFF)) == .findInformationResponse([
            .init(handle: 1, type: .primaryService), .init(handle: 2, type: .characteristic), .init(handle: 3, type: .deviceName),
            .init(handle: 4, type: .characteristic), .init(handle: 5, type: .appearance),
        ]))
        #expect(server.handle(attHex("04 2700 2800")) == attHex("05 02 2700") + GATTFixtures.longValueUUID.attBytes)
        #expect(server.handle(attHex("04 0800 0900")) == attHex("05 01 0800 052A 0900 0229"))
    }

    @Test("Find Information errors: start 0, start > end, nothing in range")
    func findInformationErrors() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .findInformationRequest(startHandle: 0, endHandle: 5)) == Self.error(.findInformationRequest, 0, .invalidHandle))
        #expect(try Self.ask(&server, .findInformationRequest(startHandle: 6, endHandle: 5)) == Self.error(.findInformationRequest, 6, .invalidHandle))
        #expect(try Self.ask(&server, .findInformationRequest(startHandle: 0x0038, endHandle: 0xFFFF)) == Self.error(.findInformationRequest, 0x38, .attributeNotFound))
    }

    // MARK: Find By Type Value

    @Test("Find By Type Value: a service by 16-bit UUID, by its 128-bit form, a 128-bit service, and not found")
    func findByTypeValue() throws {
        var server = try Self.server()
        #expect(server.handle(attHex("06 0100 FFFF 0028 0F18")) == attHex("07 1700 1A00"))
        let battery128 = BluetoothUUID.battery.uuid128.reversed()
        #expect(try Self.ask(&server, .findByTypeValueRequest(startHandle: 1, endHandle: 0xFFFF, type: 0x2800, value: Array(battery128)))
                == .findByTypeValueResponse([.init(foundHandle: 0x17, groupEndHandle: 0x1A)]))
        #expect(try Self.ask(&server, .findByTypeValueRequest(startHandle: 1, endHandle: 0xFFFF, type: 0x2800,
                                                              value: GATTFixtures.customService.attBytes))
                == .findByTypeValueResponse([.init(foundHandle: 0x25, groupEndHandle: 0x34)]))
        #expect(try Self.ask(&server, .findByTypeValueRequest(startHandle: 0x18, endHandle: 0xFFFF, type: 0x2800, value: [0x0F, 0x18]))
                == Self.error(.findByTypeValueRequest, 0x18, .attributeNotFound))
        #expect(try Self.ask(&server, .findByTypeValueRequest(startHandle: 9, endHandle: 8, type: 0x2800, value: []))
                == Self.error(.findByTypeValueRequest, 9, .invalidHandle))
        // A non-grouping attribute's group end is itself.
        #expect(try Self.ask(&server, .findByTypeValueRequest(startHandle: 1, endHandle: 0xFFFF, type: 0x2A19, value: [90]))
                == .findByTypeValueResponse([.init(foundHandle: 0x19, groupEndHandle: 0x19)]))
    }

    // MARK: Read By Type

    @Test("Read By Type for characteristic declarations: same-length entries up to ATT_MTU – 2")
    func readByTypeDeclarations() throws {
        var server = try Self.server()
        #expect(server.handle(attHex("08 0100 0500 0328")) == attHex("09 07 0200 02 0300 002A 0400 02 0500 012A"))
        // The 128-bit declaration is 19 octets: alone in a 23-octet PDU.
        #expect(server.handle(attHex("08 2500 3400 0328")) == attHex("09 15 2600 0E 2700") + GATTFixtures.longValueUUID.attBytes)
        // After it, 16-bit declarations again, three fit (2 + 3 × 7 = 23).
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 0x27, endHandle: 0x34, type: .characteristic)) == .readByTypeResponse([
            .init(handle: 0x29, value: attHex("08 2A00 01FF")), .init(handle: 0x2B, value: attHex("02 2C00 02FF")),
            .init(handle: 0x2D, value: attHex("0A 2E00 03FF")),
        ]))
    }

    @Test("Read By Type: Database Hash, Read Using Characteristic UUID, values cut to ATT_MTU – 4")
    func readByTypeValues() throws {
        var server = try Self.server()
        let hash = server.database.hash
        #expect(hash.count == 16)
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .databaseHash))
                == .readByTypeResponse([.init(handle: 0x0D, value: hash)]))
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .batteryLevel))
                == .readByTypeResponse([.init(handle: 0x19, value: [90])]))
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: GATTFixtures.longValueUUID))
                == .readByTypeResponse([.init(handle: 0x27, value: Array(GATTFixtures.longValue.prefix(19)))]))
        _ = server.handle(attHex("02 0502"))
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: GATTFixtures.longValueUUID))
                == .readByTypeResponse([.init(handle: 0x27, value: GATTFixtures.longValue)]))
    }

    @Test("Read By Type errors: not permitted, insufficient encryption, not found, invalid handle, invalid PDU")
    func readByTypeErrors() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .serviceChanged))
                == Self.error(.readByTypeRequest, 0x08, .readNotPermitted))
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: GATTFixtures.encryptedUUID))
                == Self.error(.readByTypeRequest, 0x2C, .insufficientEncryption))
        server.security = .encrypted
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: GATTFixtures.encryptedUUID))
                == .readByTypeResponse([.init(handle: 0x2C, value: [0xE0])]))
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: BluetoothUUID(UInt16(0x2A6E))))
                == Self.error(.readByTypeRequest, 1, .attributeNotFound))
        #expect(try Self.ask(&server, .readByTypeRequest(startHandle: 0, endHandle: 0xFFFF, type: .characteristic))
                == Self.error(.readByTypeRequest, 0, .invalidHandle))
        #expect(server.handle(attHex("08 0100 FFFF 03 28 00")) == attHex("01 08 0000 04"))
    }

    // MARK: Read, Read Blob

    @Test("Read: values cut to ATT_MTU – 1; CCCDs read per connection")
    func read() throws {
        var server = try Self.server()
        #expect(server.handle(attHex("0A 0300")) == [0x0B] + Array("HIL Sensor".utf8))
        #expect(try Self.ask(&server, .readRequest(handle: 0x27)) == .readResponse(value: Array(GATTFixtures.longValue.prefix(22))))
        #expect(try Self.ask(&server, .readRequest(handle: 0x1A)) == .readResponse(value: [0, 0]))
        #expect(try Self.ask(&server, .readRequest(handle: 0x31)) == .readResponse(value: [1, 0]))
        #expect(try Self.ask(&server, .readRequest(handle: 0x28)) == .readResponse(value: Array("Long value".utf8)))
    }

    @Test("Read errors: invalid handle, not permitted, insufficient encryption / authentication / authorization")
    func readErrors() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .readRequest(handle: 0)) == Self.error(.readRequest, 0, .invalidHandle))
        #expect(try Self.ask(&server, .readRequest(handle: 0x38)) == Self.error(.readRequest, 0x38, .invalidHandle))
        #expect(try Self.ask(&server, .readRequest(handle: 0x2A)) == Self.error(.readRequest, 0x2A, .readNotPermitted))
        #expect(try Self.ask(&server, .readRequest(handle: 0x08)) == Self.error(.readRequest, 0x08, .readNotPermitted))
        #expect(try Self.ask(&server, .readRequest(handle: 0x2C)) == Self.error(.readRequest, 0x2C, .insufficientEncryption))
        let database = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(UInt16(0xAAAA)), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xAAA1)), properties: .read, permissions: [.readAuthenticated], value: .bytes([1])),
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xAAA2)), properties: .read, permissions: [.readAuthorized], value: .bytes([2])),
        ])])
        var guarded = ATTServer(database: database)
        #expect(try Self.ask(&guarded, .readRequest(handle: 3)) == Self.error(.readRequest, 3, .insufficientAuthentication))
        #expect(try Self.ask(&guarded, .readRequest(handle: 5)) == Self.error(.readRequest, 5, .insufficientAuthorization))
        guarded.security = [.encrypted, .authenticated, .authorized]
        #expect(try Self.ask(&guarded, .readRequest(handle: 3)) == .readResponse(value: [1]))
        #expect(try Self.ask(&guarded, .readRequest(handle: 5)) == .readResponse(value: [2]))
    }

    @Test("Read Blob: parts from an offset; offset == length reads nothing; past it is Invalid Offset")
    func readBlob() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .readBlobRequest(handle: 0x27, offset: 22)) == .readBlobResponse(value: Array(22..<44)))
        #expect(try Self.ask(&server, .readBlobRequest(handle: 0x27, offset: 88)) == .readBlobResponse(value: Array(88..<100)))
        #expect(try Self.ask(&server, .readBlobRequest(handle: 0x27, offset: 100)) == .readBlobResponse(value: []))
        #expect(try Self.ask(&server, .readBlobRequest(handle: 0x27, offset: 101)) == Self.error(.readBlobRequest, 0x27, .invalidOffset))
        #expect(try Self.ask(&server, .readBlobRequest(handle: 0x99, offset: 0)) == Self.error(.readBlobRequest, 0x99, .invalidHandle))
        #expect(try Self.ask(&server, .readBlobRequest(handle: 0x2A, offset: 0)) == Self.error(.readBlobRequest, 0x2A, .readNotPermitted))
    }

    // MARK: Read Multiple

    @Test("Read Multiple: values concatenated and cut; the first failing handle answers")
    func readMultiple() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .readMultipleRequest(handles: [0x19, 0x20])) == .readMultipleResponse(values: [90, 1]))
        #expect(try Self.ask(&server, .readMultipleRequest(handles: [0x19, 0x27])) == .readMultipleResponse(values: [90] + Array(0..<21)))
        #expect(try Self.ask(&server, .readMultipleRequest(handles: [0x19, 0x99, 0x2A])) == Self.error(.readMultipleRequest, 0x99, .invalidHandle))
        #expect(try Self.ask(&server, .readMultipleRequest(handles: [0x19, 0x2A])) == Self.error(.readMultipleRequest, 0x2A, .readNotPermitted))
        #expect(server.handle(attHex("0E 1900")) == attHex("01 0E 0000 04"))
    }

    @Test("Read Multiple Variable: lengths with values; the list is cut at ATT_MTU – 1")
    func readMultipleVariable() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .readMultipleVariableRequest(handles: [0x19, 0x03]))
                == .readMultipleVariableResponse(values: [[90], Array("HIL Sensor".utf8)]))
        // 2+1 then 2 + 17 of 100: the second tuple's Length still says 100.
        #expect(server.handle(attHex("20 1900 2700")) == attHex("21 0100 5A 6400") + Array(0..<17))
        #expect(try Self.ask(&server, .readMultipleVariableRequest(handles: [0x19, 0x08]))
                == Self.error(.readMultipleVariableRequest, 0x08, .readNotPermitted))
    }

    // MARK: Read By Group Type

    @Test("Read By Group Type: primary services of one UUID width up to ATT_MTU – 2")
    func readByGroupType() throws {
        var server = try Self.server()
        #expect(server.handle(attHex("10 0100 FFFF 0028")) == attHex("11 06 0100 0500 0018 0600 0D00 0118 0E00 1600 0A18"))
        #expect(server.handle(attHex("10 1700 FFFF 0028")) == attHex("11 06 1700 1A00 0F18 1B00 2000 0D18 2100 2400 0918"))
        #expect(server.handle(attHex("10 2500 FFFF 0028")) == attHex("11 14 2500 3400") + GATTFixtures.customService.attBytes)
        #expect(server.handle(attHex("10 3500 FFFF 0028")) == attHex("11 06 3500 3700 F0FF"))
        _ = server.handle(attHex("02 0502"))
        let all = try Self.ask(&server, .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .primaryService))
        guard case .readByGroupTypeResponse(let list) = all else { Issue.record("\(String(describing: all))"); return }
        #expect(list.map(\.handle) == [0x01, 0x06, 0x0E, 0x17, 0x1B, 0x21])
    }

    @Test("Read By Group Type errors: unsupported group type, not found, invalid handle")
    func readByGroupTypeErrors() throws {
        var server = try Self.server()
        #expect(try Self.ask(&server, .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .characteristic))
                == Self.error(.readByGroupTypeRequest, 1, .unsupportedGroupType))
        #expect(try Self.ask(&server, .readByGroupTypeRequest(startHandle: 0x38, endHandle: 0xFFFF, type: .primaryService))
                == Self.error(.readByGroupTypeRequest, 0x38, .attributeNotFound))
        #expect(try Self.ask(&server, .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .secondaryService))
                == Self.error(.readByGroupTypeRequest, 1, .attributeNotFound))
        #expect(try Self.ask(&server, .readByGroupTypeRequest(startHandle: 0, endHandle: 0, type: .primaryService))
                == Self.error(.readByGroupTypeRequest, 0, .invalidHandle))
    }

    // MARK: Writes

    @Test("Write Request: stores the value for every connection and reports it")
    func writeRequest() throws {
        var server = try Self.server()
        let reply = server.reply(to: ATTPDU.writeRequest(handle: 0x2A, value: [1, 2, 3]).encoded())
        #expect(reply.response == attHex("13"))
        #expect(reply.events == [.valueWritten(handle: 0x2A, value: [1, 2, 3])])
        #expect(server.database.value(at: 0x2A) == [1, 2, 3])
        var other = ATTServer(database: server.database)
        _ = other.handle(ATTPDU.writeRequest(handle: 0x27, value: [9]).encoded())
        #expect(try Self.ask(&server, .readRequest(handle: 0x27)) == .readResponse(value: [9]))
    }

    @Test("Write errors: invalid handle, not permitted, too long, authentication, handler refusals")
    func writeErrors() throws {
        let box = GATTFixtures.Box()
        var server = try Self.server(box: box)
        #expect(try Self.ask(&server, .writeRequest(handle: 0x99, value: [1])) == Self.error(.writeRequest, 0x99, .invalidHandle))
        #expect(try Self.ask(&server, .writeRequest(handle: 0x03, value: [1])) == Self.error(.writeRequest, 0x03, .writeNotPermitted))
        #expect(try Self.ask(&server, .writeRequest(handle: 0x02, value: [1])) == Self.error(.writeRequest, 0x02, .writeNotPermitted))
        #expect(try Self.ask(&server, .writeRequest(handle: 0x0D, value: [1])) == Self.error(.writeRequest, 0x0D, .writeNotPermitted))
        #expect(try Self.ask(&server, .writeRequest(handle: 0x2A, value: [1, 2, 3, 4, 5])) == Self.error(.writeRequest, 0x2A, .invalidAttributeValueLength))
        #expect(try Self.ask(&server, .writeRequest(handle: 0x2E, value: [1])) == Self.error(.writeRequest, 0x2E, .insufficientAuthentication))
        server.security = [.encrypted, .authenticated]
        #expect(try Self.ask(&server, .writeRequest(handle: 0x2E, value: [1])) == .writeResponse)
        #expect(try Self.ask(&server, .writeRequest(handle: 0x37, value: [0xFF])) == Self.error(.writeRequest, 0x37, .valueNotAllowed))
        #expect(try Self.ask(&server, .writeRequest(handle: 0x37, value: [7, 7])) == .writeResponse)
        #expect(box.current == [7, 7])
        #expect(try Self.ask(&server, .readRequest(handle: 0x37)) == .readResponse(value: [7, 7]))
        #expect(server.handle(attHex("12 37")) == attHex("01 12 0000 04"))
    }

    @Test("CCCD writes are per connection and tracked as subscriptions")
    func clientConfiguration() throws {
        var server = try Self.server()
        var other = ATTServer(database: server.database)
        let reply = server.reply(to: attHex("12 1A00 0100"))
        #expect(reply.response == attHex("13"))
        #expect(reply.events == [.subscriptionChanged(valueHandle: 0x19, configuration: .notification)])
        #expect(server.isSubscribed(0x19) && !other.isSubscribed(0x19))
        #expect(server.subscriptions == [0x19: .notification])
        #expect(try Self.ask(&server, .readRequest(handle: 0x1A)) == .readResponse(value: [1, 0]))
        #expect(try Self.ask(&other, .readRequest(handle: 0x1A)) == .readResponse(value: [0, 0]))
        #expect(server.handle(attHex("12 3400 0300")) == attHex("13"))
        #expect(server.configuration(ofValue: 0x33) == [.notification, .indication])
        // Indications on a notify-only characteristic, and a CCCD value of the wrong length.
        #expect(server.handle(attHex("12 1A00 0200")) == attHex("01 12 1A00 FD"))
        #expect(server.handle(attHex("12 1A00 01")) == attHex("01 12 1A00 0D"))
        #expect(server.handle(attHex("12 1A00 0000")) == attHex("13"))
        #expect(!server.isSubscribed(0x19) && server.subscriptions == [0x33: [.notification, .indication]])
    }

    /// Core v5.4 Vol 3 Part G §2.5.2: a server whose database changed serves the new one on the same bearer;
    /// a client's CCCD value stays where the handle is still a CCCD, and is gone where it is not.
    @Test("A changed database keeps the CCCDs that are still CCCDs and drops the rest")
    func servingAChangedDatabase() throws {
        var server = try Self.server()
        #expect(server.handle(attHex("12 0900 0200")) == attHex("13"))  // Service Changed: indications
        #expect(server.handle(attHex("12 1A00 0100")) == attHex("13"))  // Battery Level: notifications
        #expect(server.subscriptions == [0x08: .indication, 0x19: .notification])
        // GAP 0x0001–0x0005, GATT 0x0006–0x000D (Service Changed CCCD still 0x0009), Heart Rate from 0x000E.
        let changed = try GATTDatabase(services: [.gap(name: "Changed"), .gatt(), .heartRate()])
        server.serve(changed)
        #expect(server.database === changed)
        #expect(server.subscriptions == [0x08: .indication])
        #expect(try Self.ask(&server, .readRequest(handle: 0x0003)) == .readResponse(value: Array("Changed".utf8)))
        #expect(try Self.ask(&server, .readRequest(handle: 0x001A)) == Self.error(.readRequest, 0x001A, .invalidHandle))
    }

    @Test("Write Command: applied without a response; errors are silent")
    func writeCommand() throws {
        var server = try Self.server()
        let reply = server.reply(to: ATTPDU.writeCommand(handle: 0x27, value: [5, 6]).encoded())
        #expect(reply.response == nil && reply.events == [.valueWritten(handle: 0x27, value: [5, 6])])
        #expect(server.database.value(at: 0x27) == [5, 6])
        #expect(server.handle(ATTPDU.writeCommand(handle: 0x03, value: [1]).encoded()) == nil)
        #expect(server.handle(ATTPDU.writeCommand(handle: 0x99, value: [1]).encoded()) == nil)
        #expect(server.handle(ATTPDU.signedWriteCommand(handle: 0x27, value: [1], signature: Array(repeating: 0, count: 12)).encoded()) == nil)
        #expect(server.database.value(at: 0x27) == [5, 6])
    }

    // MARK: Prepared writes

    @Test("Prepare Write echoes, Execute Write assembles and writes; cancel discards")
    func preparedWrites() throws {
        var server = try Self.server()
        let value: [UInt8] = Array(200..<250)
        for offset in stride(from: 0, to: value.count, by: 18) {
            let part = Array(value[offset..<min(value.count, offset + 18)])
            #expect(try Self.ask(&server, .prepareWriteRequest(handle: 0x27, offset: UInt16(offset), value: part))
                    == .prepareWriteResponse(handle: 0x27, offset: UInt16(offset), value: part))
        }
        #expect(server.database.value(at: 0x27) == GATTFixtures.longValue)
        let reply = server.reply(to: attHex("18 01"))
        #expect(reply.response == attHex("19") && reply.events == [.valueWritten(handle: 0x27, value: value)])
        #expect(server.database.value(at: 0x27) == value)

        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x27, offset: 0, value: [1]).encoded())
        #expect(server.handle(attHex("18 00")) == attHex("19"))
        #expect(server.database.value(at: 0x27) == value)
        #expect(server.handle(attHex("18 01")) == attHex("19"))
        #expect(server.handle(attHex("18 02")) == attHex("01 18 0000 04"))
    }

    @Test("Prepared writes at an offset keep the bytes before it; a CCCD can be written this way")
    func preparedAtOffset() throws {
        var server = try Self.server()
        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x27, offset: 98, value: [0xAA, 0xBB, 0xCC]).encoded())
        #expect(server.handle(attHex("18 01")) == attHex("19"))
        #expect(server.database.value(at: 0x27) == Array(0..<98) + [0xAA, 0xBB, 0xCC])
        _ = server.handle(attHex("16 1A00 0000 01"))
        _ = server.handle(attHex("16 1A00 0100 00"))
        #expect(server.handle(attHex("18 01")) == attHex("19"))
        #expect(server.isSubscribed(0x19))
    }

    @Test("Prepared write errors: invalid handle, not permitted, queue full, invalid offset, invalid length")
    func preparedWriteErrors() throws {
        var server = try Self.server()
        server.maximumPreparedWrites = 2
        #expect(try Self.ask(&server, .prepareWriteRequest(handle: 0x99, offset: 0, value: [1])) == Self.error(.prepareWriteRequest, 0x99, .invalidHandle))
        #expect(try Self.ask(&server, .prepareWriteRequest(handle: 0x03, offset: 0, value: [1])) == Self.error(.prepareWriteRequest, 0x03, .writeNotPermitted))
        #expect(try Self.ask(&server, .prepareWriteRequest(handle: 0x2E, offset: 0, value: [1])) == Self.error(.prepareWriteRequest, 0x2E, .insufficientAuthentication))
        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x2A, offset: 0, value: [1]).encoded())
        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x2A, offset: 1, value: [2]).encoded())
        #expect(try Self.ask(&server, .prepareWriteRequest(handle: 0x2A, offset: 2, value: [3])) == Self.error(.prepareWriteRequest, 0x2A, .prepareQueueFull))
        #expect(server.handle(attHex("18 01")) == attHex("19"))
        #expect(server.database.value(at: 0x2A) == [1, 2])

        // Invalid offset: past the value built so far; nothing is written, the queue is emptied.
        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x27, offset: 0, value: [7]).encoded())
        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x2A, offset: 9, value: [1]).encoded())
        #expect(try Self.ask(&server, .executeWriteRequest(.write)) == Self.error(.executeWriteRequest, 0x2A, .invalidOffset))
        #expect(server.database.value(at: 0x27) == GATTFixtures.longValue)
        #expect(server.handle(attHex("18 01")) == attHex("19"))

        // Invalid length: more than the 4 octets the write-only characteristic takes.
        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x2A, offset: 0, value: [1, 2, 3]).encoded())
        _ = server.handle(ATTPDU.prepareWriteRequest(handle: 0x2A, offset: 3, value: [4, 5]).encoded())
        #expect(try Self.ask(&server, .executeWriteRequest(.write)) == Self.error(.executeWriteRequest, 0x2A, .invalidAttributeValueLength))
        #expect(server.database.value(at: 0x2A) == [1, 2])
    }

    // MARK: Server-initiated PDUs

    @Test("Notifications and indications are cut to ATT_MTU – 3; the confirmation clears the indication")
    func notifications() throws {
        var server = try Self.server()
        #expect(server.notification(handle: 0x19, value: [77]) == attHex("1B 1900 4D"))
        #expect(server.notification(handle: 0x27, value: GATTFixtures.longValue) == attHex("1B 2700") + Array(0..<20))
        #expect(!server.isAwaitingConfirmation)
        #expect(server.indication(handle: 0x23, value: GATTFixtures.longValue) == attHex("1D 2300") + Array(0..<20))
        #expect(server.isAwaitingConfirmation)
        let reply = server.reply(to: attHex("1E"))
        #expect(reply.response == nil && reply.events == [.confirmationReceived] && !server.isAwaitingConfirmation)
        _ = server.handle(attHex("02 0502"))
        #expect(server.notification(handle: 0x27, value: GATTFixtures.longValue).count == 103)
    }

    // MARK: Unknown and malformed PDUs

    @Test("Unknown requests: Request Not Supported; unknown commands, responses and notifications: silence")
    func unknown() throws {
        var server = try Self.server()
        #expect(server.handle(attHex("3F 0102")) == attHex("01 3F 0000 06"))
        #expect(server.handle(attHex("7F 0102")) == nil)
        #expect(server.handle(attHex("0B 0102")) == nil)
        #expect(server.handle(attHex("1B 0100 02")) == nil)
        #expect(server.handle(attHex("01 0A 0100 01")) == nil)
        #expect(server.handle([]) == nil)
    }

    @Test("Malformed requests get Invalid PDU with handle 0; malformed commands get nothing", arguments: [
        "02 17", "04 0100", "06 0100 FFFF 00", "08 0100 FFFF 0028 00", "0A", "0A 0100 00", "0C 0100", "0E 0100",
        "10 0100 FFFF", "12 01", "16 0100 00", "18", "18 01 00", "20 0100 02",
    ])
    func malformed(hex: String) throws {
        var server = try Self.server()
        let bytes = attHex(hex)
        #expect(server.handle(bytes) == [0x01, bytes[0], 0x00, 0x00, 0x04])
        #expect(server.handle(attHex("52 01")) == nil)
        #expect(server.handle(attHex("D2 0100 00")) == nil)
    }

    @Test("10,000 random PDUs: never a trap; every response decodes and answers its request")
    func fuzz() throws {
        var server = try Self.server()
        var generator = SplitMix64(seed: 0x5E4)
        let opcodes: [UInt8] = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20, 0x52, 0x1E, 0x3F]
        for _ in 0..<10_000 {
            let length = Int.random(in: 1...24, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[0] = opcodes[Int.random(in: 0..<opcodes.count, using: &generator)]
            if bytes.count > 2 { bytes[2] = 0 }  // handles mostly inside the database
            guard let response = server.handle(bytes) else { continue }
            let opcode = ATTOpcode(bytes[0])
            switch attDecode(response) {
            case .failure(let error): Issue.record("response \(response) to \(bytes) does not decode: \(error)")
            case .success(let pdu):
                #expect(response.count <= server.mtu)
                if case .errorResponse(let request, _, _) = pdu {
                    #expect(request == opcode)
                } else {
                    #expect(pdu.opcode == opcode.expectedResponse)
                }
            }
        }
    }

    // MARK: Interceptor

    @Test("Interceptor: drop, replace and delay one request; a global response delay")
    func interceptor() throws {
        var server = try Self.server()
        server.interceptor = { pdu in
            switch pdu {
            case .readRequest(0x03): .drop
            case .readRequest(0x05): .replace(.errorResponse(request: .readRequest, handle: 5, error: .unlikelyError))
            case .readRequest(0x19): .delay(.milliseconds(250))
            case .writeCommand: .replace(nil)
            default: nil
            }
        }
        let dropped = server.reply(to: attHex("0A 0300"))
        #expect(dropped.response == nil && dropped.events == [.dropped(.readRequest(handle: 3))])
        #expect(server.handle(attHex("0A 0500")) == attHex("01 0A 0500 0E"))
        let before = server.database.value(at: 0x27)
        let ignored = server.reply(to: ATTPDU.writeCommand(handle: 0x27, value: [5, 6]).encoded())
        #expect(ignored.response == nil && ignored.events.isEmpty && server.database.value(at: 0x27) == before)
        let slow = server.reply(to: attHex("0A 1900"))
        #expect(slow.response == attHex("0B 5A") && slow.delay == .milliseconds(250))
        server.responseDelay = .milliseconds(10)
        #expect(server.reply(to: attHex("0A 2000")).delay == .milliseconds(10))
    }
}
