@testable import HostCore
@testable import GATT
import Testing

/// A server that breaks ATT's rules on purpose (Core v5.4 Vol 3 Part F): each violation fails what waited
/// for it with a clean error, is recorded with the octets exactly as they came, and the client never traps.
@Suite("GATT client: protocol violations")
struct GATTClientViolationTests {
    @Test("Exchange MTU answered with 0 fails discovery with the violation and its bytes (§3.4.2.2: at least 23)")
    func mtuZero() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            await loopback.set(rewrite: { request, response in
                if case .exchangeMTURequest = request { return attHex("03 0000") }
                return response
            })
            await #expect { _ = try await client.discoverAll() } throws: { error in
                guard let error = error as? ATTError, case .protocolViolation(let request, let violation) = error else { return false }
                return request == .exchangeMTURequest(clientRxMTU: 517) && violation.bytes == [0x03, 0x00, 0x00]
                    && error.description.contains("Server Rx MTU 0, below the minimum 23 (Vol 3 Part F §3.4.2.2) (bytes: 03 00 00)")
            }
            #expect(await client.mtu == 23)
            #expect(await client.violations.map(\.layer) == [.att])
        }
    }

    @Test("A response longer than the ATT_MTU fails its request; the bearer stays usable (§3.2.9)")
    func oversized() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            let long = [0x0B] + [UInt8](repeating: 0x5A, count: 30)
            await loopback.set(rewrite: { request, response in
                if case .readRequest(0x19) = request { return long }
                return response
            })
            await #expect { _ = try await client.read(handle: 0x19) } throws: { error in
                guard let error = error as? ATTError, case .protocolViolation(_, let violation) = error else { return false }
                return violation.bytes == long && violation.what.contains("of 31 octets exceeds the ATT_MTU of 23")
            }
            await loopback.set(rewrite: nil)
            #expect(try await client.read(handle: 0x19) == [90])
        }
    }

    @Test("Truncated, wrong-opcode, backwards and unsolicited PDUs are recorded with their bytes as they came")
    func recordedWithBytes() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            await loopback.set(rewrite: { request, response in
                switch request {
                case .readByGroupTypeRequest: attHex("11")                                            // opcode alone
                case .readRequest(0x19): attHex("13")                                                  // a Write Response
                case .findInformationRequest: attHex("05 01 0500 0229")                                // a handle below the range
                default: response
                }
            })
            _ = try? await client.discoverPrimaryServices()
            _ = try? await client.read(handle: 0x19)
            let characteristic = GATTServiceTree.Characteristic(handle: 0x18, valueHandle: 0x19, endHandle: 0x1A,
                                                                uuid: .batteryLevel, properties: [.read, .notify])
            _ = try? await client.discoverDescriptors(of: characteristic)
            await loopback.set(rewrite: nil)
            await loopback.inject(attHex("0B 0102"))                                                   // nobody asked
            let violations = await client.violations
            #expect(violations.map(\.bytes) == [[0x11], [0x13], attHex("05 01 0500 0229"), attHex("0B 0102")])
            #expect(violations[0].description.hasPrefix("protocol violation: ATT malformed Read By Group Type Response (0x11)"))
            #expect(violations[1].what == "Write Response (0x13) in answer to Read Request (0x0A)")
            #expect(violations[2].what.contains("handle 0x0005 is outside 0x001A…0x001A"))
            #expect(violations[3].what.hasPrefix("unsolicited Read Response (0x0B)"))
            #expect(try await client.read(handle: 0x19) == [90])
        }
    }

    @Test("Notifications nobody subscribed to: the 50th is a flood; a subscribed handle never counts")
    func flood() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            let stream = await client.notifications(handle: 0x19)
            for _ in 0..<60 { await loopback.inject(attHex("1B 1900 01")) }
            #expect(await client.violations.isEmpty)
            for index in 0..<GATTClient.notificationFloodThreshold { await loopback.inject([0x1B, 0x03, 0x00, UInt8(index)]) }
            let violations = await client.violations
            #expect(violations.count == 1)
            #expect(violations.first?.bytes == [0x1B, 0x03, 0x00, UInt8(GATTClient.notificationFloodThreshold - 1)])
            _ = stream
        }
    }

    @Test("The description shows at most 32 octets, spaced lowercase hex, then an ellipsis")
    func description() {
        let violation = ProtocolViolation(.smp, "Pairing Random (0x04) with no pairing under way", bytes: [0x04] + [UInt8](repeating: 0xAB, count: 40))
        #expect(violation.description.hasPrefix("protocol violation: SMP Pairing Random (0x04) with no pairing under way (bytes: 04 ab ab"))
        #expect(violation.description.hasSuffix(" …)"))
        #expect(violation.hexBytes.split(separator: " ").count == 41)
    }
}
