import Testing
import TestSupport
@testable import HCIPackets

/// Events decoded from bytes laid out as the Core spec's Vol 4 Part E §7.7 says, several taken from
/// btvirt and btmon captures.
@Suite struct EventDecodingTests {
    static func decode(_ hex: String) throws -> HCIEvent {
        var framer = H4Framer()
        let packets = try framer.feed(hexBytes(hex))
        guard case .event(let packet)? = packets.first else { throw TestFailure("not an event: \(hex)") }
        return try HCIEvent(decoding: packet)
    }

    @Test func commandCompleteFromBtvirt() throws {
        let event = try Self.decode("04 0e 0a 01 09 10 00 42 00 00 01 aa 00")
        #expect(event == .commandComplete(numCommandPackets: 1, opcode: .readBDADDR, returnParameters: hexBytes("00 42 00 00 01 aa 00")))
    }

    @Test func commandStatus() throws {
        #expect(try Self.decode("04 0f 04 0c 01 0d 20") == .commandStatus(status: .commandDisallowed, numCommandPackets: 1, opcode: .leCreateConnection))
    }

    @Test func disconnectionCompleteWithConnectionTimeout() throws {
        let event = try Self.decode("04 05 04 00 40 00 08")
        #expect(event == .disconnectionComplete(DisconnectionComplete(status: .success, handle: 0x40, reason: .connectionTimeout)))
        #expect(event.summary.contains("0x08 Connection Timeout"))
    }

    @Test func numberOfCompletedPackets() throws {
        #expect(try Self.decode("04 13 09 02 40 00 01 00 41 00 03 00") ==
            .numberOfCompletedPackets([CompletedPackets(handle: 0x40, count: 1), CompletedPackets(handle: 0x41, count: 3)]))
    }

    @Test func hardwareError() throws {
        #expect(try Self.decode("04 10 01 2a") == .hardwareError(code: 0x2A))
    }

    @Test func readRemoteVersionComplete() throws {
        guard case .readRemoteVersionComplete(let version) = try Self.decode("04 0c 08 00 40 00 0b 59 00 34 12") else {
            Issue.record("wrong case"); return
        }
        #expect(version.version.name == "5.2")
        #expect(version.manufacturer.rawValue == 0x0059)
        #expect(version.subversion == 0x1234)
    }

    @Test func leConnectionComplete() throws {
        guard case .le(.connectionComplete(let complete)) = try Self.decode("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00") else {
            Issue.record("wrong case"); return
        }
        #expect(complete.status == .success)
        #expect(complete.handle == 0x0040)
        #expect(complete.role == .central)
        #expect(complete.peerAddress.description == "00:AA:01:01:00:42")
        #expect(complete.interval == 0x18)
        #expect(complete.supervisionTimeout == 0x2A)
        #expect(complete.localResolvablePrivateAddress == nil)
    }

    @Test func enhancedConnectionCompleteV1AndV2() throws {
        let v1 = "04 3e 1f 0a 00 01 00 01 01 55 44 33 22 11 c0 00 00 00 00 00 00 00 00 00 00 00 00 06 00 00 00 c8 00 01"
        guard case .le(.connectionComplete(let first)) = try Self.decode(v1) else { Issue.record("v1"); return }
        #expect(first.role == .peripheral)
        #expect(first.peerAddressType == .random)
        #expect(first.peerAddress.description == "C0:11:22:33:44:55")
        #expect(first.localResolvablePrivateAddress == .zero)
        #expect(first.supervisionTimeout == 200)
        #expect(first.advertisingHandle == nil)
        let v2 = "04 3e 22 29 00 01 00 01 01 55 44 33 22 11 c0 00 00 00 00 00 00 00 00 00 00 00 00 06 00 00 00 c8 00 01 03 ff ff"
        guard case .le(.connectionComplete(let second)) = try Self.decode(v2) else { Issue.record("v2"); return }
        #expect(second.advertisingHandle == 3)
        #expect(second.syncHandle == 0xFFFF)
    }

    @Test func failedConnectionCompleteKeepsTheStatus() throws {
        guard case .le(.connectionComplete(let complete)) = try Self.decode("04 3e 13 01 3e 00 00 ff ff 00 00 00 00 00 00 00 00 00 00 00 00 00") else {
            Issue.record("wrong case"); return
        }
        #expect(complete.status == .connectionFailedToBeEstablished)
    }

    @Test func legacyAdvertisingReport() throws {
        guard case .le(.advertisingReports(let reports)) = try Self.decode("04 3e 16 02 01 00 00 42 00 00 01 aa 00 0a 02 01 06 06 09 54 68 65 72 6d 7f") else {
            Issue.record("wrong case"); return
        }
        #expect(reports.count == 1)
        #expect(reports[0].isConnectable)
        #expect(!reports[0].isScanResponse)
        #expect(reports[0].rssi == 127)
        #expect(reports[0].advertisingData.localName == "Therm")
    }

    @Test func extendedAdvertisingReport() throws {
        let hex = "04 3e 1d 0d 01 13 00 01 55 44 33 22 11 c0 01 00 ff 7f c4 00 00 00 00 00 00 00 00 00 03 02 01 06"
        guard case .le(.advertisingReports(let reports)) = try Self.decode(hex) else { Issue.record("wrong case"); return }
        #expect(reports[0].eventType == [.connectable, .scannable, .legacy])
        #expect(reports[0].rssi == -60)
        #expect(reports[0].addressType == .random)
        #expect(reports[0].advertisingData.flags != nil)
    }

    @Test func otherLESubevents() throws {
        #expect(try Self.decode("04 3e 0a 03 00 40 00 28 00 00 00 2a 00") ==
            .le(.connectionUpdateComplete(status: .success, handle: 0x40, interval: 0x28, latency: 0, supervisionTimeout: 0x2A)))
        #expect(try Self.decode("04 3e 0c 04 00 40 00 01 00 00 00 00 00 00 00") ==
            .le(.readRemoteFeaturesComplete(status: .success, handle: 0x40, features: .leEncryption)))
        #expect(try Self.decode("04 3e 06 12 00 00 40 00 00") ==
            .le(.advertisingSetTerminated(status: .success, advertisingHandle: 0, connectionHandle: 0x40, completedEvents: 0)))
        #expect(try Self.decode("04 3e 04 14 40 00 01") == .le(.channelSelectionAlgorithm(handle: 0x40, algorithm: 1)))
    }

    /// LE Scan Request Received (§7.7.65.19): Advertising_Handle, Scanner_Address_Type, Scanner_Address
    /// (little-endian); an address type past 0x03 is an error naming the field, and a short event one too.
    @Test func scanRequestReceived() throws {
        #expect(try Self.decode("04 3e 09 13 00 01 e5 d4 c3 b2 a1 c0") ==
            .le(.scanRequestReceived(advertisingHandle: 0, scannerAddressType: .random, scannerAddress: BDAddress(0xC0_A1_B2_C3_D4_E5))))
        #expect(throws: HCIDecodingError.self) { try Self.decode("04 3e 09 13 00 04 e5 d4 c3 b2 a1 c0") }
        #expect(throws: HCIDecodingError.self) { try Self.decode("04 3e 08 13 00 01 e5 d4 c3 b2 a1") }
    }

    /// Encryption Change [v1] (§7.7.8), Encryption Key Refresh Complete (§7.7.39) and LE Long Term Key
    /// Request (§7.7.65.5: handle, Random_Number and Encrypted_Diversifier, little-endian).
    @Test func encryptionEvents() throws {
        #expect(try Self.decode("04 08 04 00 40 00 01") == .encryptionChange(status: .success, handle: 0x40, enabled: 0x01))
        #expect(try Self.decode("04 08 04 06 40 00 00") == .encryptionChange(status: .pinOrKeyMissing, handle: 0x40, enabled: 0x00))
        #expect(try Self.decode("04 30 03 00 40 00") == .encryptionKeyRefreshComplete(status: .success, handle: 0x40))
        let refresh = try Self.decode("04 30 03 3d 41 00")
        #expect(refresh == .encryptionKeyRefreshComplete(status: .connectionTerminatedDueToMICFailure, handle: 0x41))
        #expect(refresh.summary.contains("0x3D Connection Terminated due to MIC Failure"))
        let request = try Self.decode("04 3e 0d 05 40 00 ef cd ab 89 67 45 23 01 34 12")
        #expect(request == .le(.longTermKeyRequest(handle: 0x40, random: 0x0123_4567_89AB_CDEF, ediv: 0x1234)))
        #expect(request.summary == "LE Long Term Key Request (handle 0x0040)")
        // The handle's top four bits (reserved) are dropped, as for every other event.
        #expect(try Self.decode("04 3e 0d 05 40 f0 00 00 00 00 00 00 00 00 00 00")
                == .le(.longTermKeyRequest(handle: 0x40, random: 0, ediv: 0)))
    }

    @Test func unknownEventsAreKeptRaw() throws {
        #expect(try Self.decode("04 ff 03 01 02 03") == .unknown(code: 0xFF, parameters: [1, 2, 3]))
        #expect(try Self.decode("04 3e 03 7e 01 02") == .le(.unknown(subevent: 0x7E, parameters: [1, 2])))
    }

    @Test(arguments: [
        "04 05 02 00 40",                       // Disconnection Complete without Reason
        "04 0e 02 01 09",                       // Command Complete without a whole opcode
        "04 3e 05 01 00 40 00 00",              // truncated LE Connection Complete
        "04 3e 04 02 01 00 00",                 // Advertising Report cut in the address
        "04 3e 0e 02 01 00 00 42 00 00 01 aa 00 20 02 01 06", // Data_Length 32 > 31
        "04 13 03 02 40 00",                    // NOCP claiming two entries, carrying less than one
        "04 30 02 00 40",                       // Encryption Key Refresh Complete cut in the handle
        "04 3e 0c 05 40 00 ef cd ab 89 67 45 23 01 34", // LE Long Term Key Request without a whole EDIV
        "04 3e 06 05 40 00 ef cd ab",           // LE Long Term Key Request cut in Random_Number
    ])
    func truncatedEventsThrowNamingTheField(hex: String) throws {
        do {
            _ = try Self.decode(hex)
            Issue.record("decoded malformed event \(hex)")
        } catch let error as HCIDecodingError {
            #expect(!error.description.isEmpty)
        }
    }

    @Test func everyPrefixOfEveryVectorDecodesOrThrows() throws {
        let vectors = [
            "04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00",
            "04 3e 1d 0d 01 13 00 01 55 44 33 22 11 c0 01 00 ff 7f c4 00 00 00 00 00 00 00 00 00 03 02 01 06",
            "04 0c 08 00 40 00 0b 59 00 34 12",
            "04 3e 0d 05 40 00 ef cd ab 89 67 45 23 01 34 12",
            "04 30 03 00 40 00",
        ]
        var decodedWhole = 0
        for vector in vectors {
            let bytes = hexBytes(vector)
            let parameters = Array(bytes.dropFirst(3))
            for length in 0...parameters.count {
                let packet = HCIEventPacket(code: bytes[1], parameters: Array(parameters.prefix(length)))
                if (try? HCIEvent(decoding: packet)) != nil, length == parameters.count { decodedWhole += 1 }
            }
        }
        #expect(decodedWhole == vectors.count)
    }
}
