import Testing
import TestSupport
@testable import HCIPackets

/// Event encoders are the exact inverse of the decoders: decode(encode(x)) == x for every case, and
/// encode(decode(bytes)) == bytes for the spec vectors of `EventDecodingTests`.
@Suite struct EventEncodingTests {
    static let peer = BDAddress("00:AA:01:01:00:42") ?? .zero
    static let random = BDAddress("C0:11:22:33:44:55") ?? .zero

    static func enhanced(_ subevent: UInt8) -> LEConnectionComplete {
        var complete = LEConnectionComplete(status: .success, handle: 0x0001, role: .peripheral, peerAddressType: .random,
                                            peerAddress: random, interval: 6, latency: 0, supervisionTimeout: 200,
                                            centralClockAccuracy: 1, subevent: subevent)
        complete.localResolvablePrivateAddress = .zero
        complete.peerResolvablePrivateAddress = BDAddress("4A:01:02:03:04:05")
        if subevent == LEMetaEvent.Subevent.enhancedConnectionCompleteV2 {
            complete.advertisingHandle = 3
            complete.syncHandle = 0xFFFF
        }
        return complete
    }

    static var extendedReport: AdvertisingReport {
        var report = AdvertisingReport(eventType: [.connectable, .scannable, .legacy], addressType: .random,
                                       address: random, rssi: -60, data: [0x02, 0x01, 0x06])
        report.txPower = 127
        report.primaryPHY = 1
        report.secondaryPHY = 0
        report.sid = 0xFF
        return report
    }

    /// One value of every `HCIEvent` and `LEMetaEvent` case (several for the cases with variants).
    static let everyCase: [HCIEvent] = [
        .commandComplete(numCommandPackets: 1, opcode: .readBDADDR, returnParameters: [0x00, 0x42, 0x00, 0x00, 0x01, 0xAA, 0x00]),
        .commandComplete(numCommandPackets: 0, opcode: HCIOpcode(rawValue: 0), returnParameters: []),
        .commandStatus(status: .commandDisallowed, numCommandPackets: 1, opcode: .leCreateConnection),
        .disconnectionComplete(DisconnectionComplete(status: .success, handle: 0x0040, reason: .connectionTimeout)),
        .numberOfCompletedPackets([CompletedPackets(handle: 0x40, count: 1), CompletedPackets(handle: 0x41, count: 3)]),
        .numberOfCompletedPackets([]),
        .hardwareError(code: 0x2A),
        .encryptionChange(status: .success, handle: 0x0040, enabled: 1),
        .readRemoteVersionComplete(RemoteVersion(status: .success, handle: 0x40, version: BluetoothVersion(0x0B),
                                                 manufacturer: CompanyIdentifier(0x0059), subversion: 0x1234)),
        .dataBufferOverflow(linkType: 0x01),
        .encryptionKeyRefreshComplete(status: .success, handle: 0x0040),
        .encryptionKeyRefreshComplete(status: .connectionTerminatedDueToMICFailure, handle: 0x0EFF),
        .le(.connectionComplete(LEConnectionComplete(status: .success, handle: 0x0040, role: .central, peerAddressType: .public,
                                                     peerAddress: peer, interval: 0x18, latency: 0, supervisionTimeout: 0x2A))),
        .le(.connectionComplete(LEConnectionComplete(status: .unknownConnectionIdentifier, handle: 0, role: .central,
                                                     peerAddressType: .public, peerAddress: .zero, interval: 0, latency: 0,
                                                     supervisionTimeout: 0))),
        .le(.connectionComplete(enhanced(LEMetaEvent.Subevent.enhancedConnectionCompleteV1))),
        .le(.connectionComplete(enhanced(LEMetaEvent.Subevent.enhancedConnectionCompleteV2))),
        .le(.advertisingReports([AdvertisingReport(eventType: [.legacy, .connectable, .scannable], addressType: .public,
                                                   address: peer, rssi: -52, data: [0x02, 0x01, 0x06]),
                                 AdvertisingReport(eventType: [.legacy, .scanResponse, .scannable], addressType: .public,
                                                   address: peer, rssi: -53, data: [])])),
        .le(.advertisingReports([AdvertisingReport(eventType: [.legacy, .connectable, .directed], addressType: .random,
                                                   address: random, rssi: 127, data: [])])),
        .le(.advertisingReports([extendedReport])),
        .le(.connectionUpdateComplete(status: .success, handle: 0x40, interval: 0x28, latency: 0, supervisionTimeout: 0x2A)),
        .le(.readRemoteFeaturesComplete(status: .success, handle: 0x40, features: .leEncryption)),
        .le(.longTermKeyRequest(handle: 0x40, random: 0x0123_4567_89AB_CDEF, ediv: 0x1234)),
        .le(.longTermKeyRequest(handle: 0x0EFF, random: 0, ediv: 0)),
        .le(.dataLengthChange(handle: 0x40, maxTxOctets: 251, maxTxTime: 2120, maxRxOctets: 27, maxRxTime: 328)),
        .le(.phyUpdateComplete(status: .success, handle: 0x40, txPHY: 2, rxPHY: 2)),
        .le(.scanTimeout),
        .le(.advertisingSetTerminated(status: .success, advertisingHandle: 0, connectionHandle: 0x40, completedEvents: 0)),
        .le(.channelSelectionAlgorithm(handle: 0x40, algorithm: 1)),
        .le(.unknown(subevent: 0x7E, parameters: [1, 2])),
        .unknown(code: 0xFF, parameters: [1, 2, 3]),
    ]

    @Test(arguments: everyCase)
    func decodingTheEncodingGivesTheEventBack(event: HCIEvent) throws {
        let packet = event.encoded()
        #expect(try HCIEvent(decoding: packet) == event)
        // Through H4 too, as a controller sends it.
        var framer = H4Framer()
        let framed = try framer.feed(HCIPacket.event(packet).h4Bytes)
        #expect(framed == [.event(packet)])
    }

    @Test func legacyOnlyWhenEveryReportIsLegacy() {
        let legacy = AdvertisingReport(eventType: [.legacy], addressType: .public, address: Self.peer, rssi: -40, data: [])
        #expect(HCIEvent.le(.advertisingReports([legacy])).encoded().parameters.first == LEMetaEvent.Subevent.advertisingReport)
        // A legacy-typed report with an extended-only field needs the extended format.
        #expect(HCIEvent.le(.advertisingReports([legacy, Self.extendedReport])).encoded().parameters.first
                == LEMetaEvent.Subevent.extendedAdvertisingReport)
        // An event type with no legacy equivalent (legacy + scannable + directed) needs it too.
        let odd = AdvertisingReport(eventType: [.legacy, .scannable, .directed], addressType: .public, address: Self.peer, rssi: -40, data: [])
        #expect(HCIEvent.le(.advertisingReports([odd])).encoded().parameters.first == LEMetaEvent.Subevent.extendedAdvertisingReport)
    }

    @Test func connectionCompleteUsesItsSubevent() {
        for subevent in [LEMetaEvent.Subevent.connectionComplete, LEMetaEvent.Subevent.enhancedConnectionCompleteV1,
                         LEMetaEvent.Subevent.enhancedConnectionCompleteV2] {
            let packet = HCIEvent.le(.connectionComplete(Self.enhanced(subevent))).encoded()
            #expect(packet.parameters.first == subevent)
            #expect(packet.parameters.count == [0x01: 19, 0x0A: 31, 0x29: 34][subevent])
        }
    }

    /// The vectors of `EventDecodingTests` whose every byte the decoder keeps.
    @Test(arguments: [
        "04 0e 0a 01 09 10 00 42 00 00 01 aa 00",
        "04 0f 04 0c 01 0d 20",
        "04 05 04 00 40 00 08",
        "04 13 09 02 40 00 01 00 41 00 03 00",
        "04 10 01 2a",
        "04 0c 08 00 40 00 0b 59 00 34 12",
        "04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00",
        "04 3e 1f 0a 00 01 00 01 01 55 44 33 22 11 c0 00 00 00 00 00 00 00 00 00 00 00 00 06 00 00 00 c8 00 01",
        "04 3e 22 29 00 01 00 01 01 55 44 33 22 11 c0 00 00 00 00 00 00 00 00 00 00 00 00 06 00 00 00 c8 00 01 03 ff ff",
        "04 3e 16 02 01 00 00 42 00 00 01 aa 00 0a 02 01 06 06 09 54 68 65 72 6d 7f",
        "04 3e 1d 0d 01 13 00 01 55 44 33 22 11 c0 01 00 ff 7f c4 00 00 00 00 00 00 00 00 00 03 02 01 06",
        "04 3e 0a 03 00 40 00 28 00 00 00 2a 00",
        "04 3e 0c 04 00 40 00 01 00 00 00 00 00 00 00",
        "04 3e 06 12 00 00 40 00 00",
        "04 3e 04 14 40 00 01",
        "04 08 04 06 40 00 00",
        "04 30 03 00 40 00",
        "04 3e 0d 05 40 00 ef cd ab 89 67 45 23 01 34 12",
        "04 ff 03 01 02 03",
        "04 3e 03 7e 01 02",
    ])
    func encodingTheDecodingGivesTheBytesBack(hex: String) throws {
        let bytes = hexBytes(hex)
        let event = try EventDecodingTests.decode(hex)
        #expect(HCIPacket.event(event.encoded()).h4Bytes == bytes)
    }

    /// A failed connection's Role and Peer_Address_Type may be garbage (0xFF here); the decoder keeps the
    /// status and defaults the rest, so only the status survives the round trip.
    @Test func failedConnectionCompleteKeepsItsStatus() throws {
        let event = try EventDecodingTests.decode("04 3e 13 01 3e 00 00 ff ff 00 00 00 00 00 00 00 00 00 00 00 00 00")
        let again = try HCIEvent(decoding: event.encoded())
        #expect(again == event)
        guard case .le(.connectionComplete(let complete)) = again else { Issue.record("wrong case"); return }
        #expect(complete.status == .connectionFailedToBeEstablished)
    }
}
