@testable import GATT
import Testing

/// The paging the discovery procedures share (Vol 3 Part G §4.4–§4.8): where a
/// procedure stops, and that a response that does not move on fails instead of looping.
@Suite("GATT client paging")
struct GATTClientPagingTests {
    @Test("A service group ending at 0xFFFF ends discovery without another request")
    func groupEndingAtLastHandle() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            await loopback.set(rewrite: { request, response in
                switch request {
                case .readByGroupTypeRequest: attHex("11 06 0100 FFFF 0018")
                case .findByTypeValueRequest: attHex("07 0100 FFFF")
                default: response
                }
            })
            let all = try await client.discoverPrimaryServices()
            #expect(all == [GATTServiceTree.Service(handle: 1, endHandle: 0xFFFF, uuid: .genericAccess)])
            let byUUID = try await client.discoverPrimaryServices(uuid: .genericAccess)
            #expect(byUUID == [GATTServiceTree.Service(handle: 1, endHandle: 0xFFFF, uuid: .genericAccess)])
            #expect(await loopback.sent.count == 2)
        }
    }

    @Test("A page that repeats a handle already taken fails, naming the request, instead of asking again")
    func pageThatDoesNotAdvance() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            await loopback.set(rewrite: { request, response in
                switch request {
                case .readByGroupTypeRequest: attHex("11 06 0100 0500 0018")   // always the first service
                case .findInformationRequest: attHex("05 01 1A00 022A")         // always handle 0x001A
                default: response
                }
            })
            await #expect { _ = try await client.discoverPrimaryServices() } throws: { error in
                guard let error = error as? ATTError, case .invalidResponse(let request, let reason) = error else { return false }
                return request == .readByGroupTypeRequest(startHandle: 6, endHandle: 0xFFFF, type: .primaryService)
                    && reason == "service 0x0001…0x0005 is out of order (expected handles from 0x0006)"
            }
            let characteristic = GATTServiceTree.Characteristic(handle: 0x18, valueHandle: 0x19, endHandle: 0x1C,
                                                                uuid: .batteryLevel, properties: [.read, .notify])
            await #expect { _ = try await client.discoverDescriptors(of: characteristic) } throws: { error in
                guard let error = error as? ATTError, case .invalidResponse(let request, let reason) = error else { return false }
                return request == .findInformationRequest(startHandle: 0x1B, endHandle: 0x1C)
                    && reason == "handle 0x001A is outside 0x001B…0x001C or out of order"
            }
            #expect(await loopback.sent.count == 4)
        }
    }

    @Test("Read By Type pages stop at the end of the range; an entry past it fails")
    func readByTypeRange() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            await loopback.set(rewrite: { request, response in
                guard case .readByTypeRequest(let start, _, _) = request else { return response }
                return start == 0x10 ? attHex("09 03 1000 01") : attHex("09 03 1200 02")   // 0x0012 is past 0x0011
            })
            await #expect { _ = try await client.read(uuid: .batteryLevel, from: 0x10, through: 0x11) } throws: { error in
                guard let error = error as? ATTError, case .invalidResponse(let request, let reason) = error else { return false }
                return request == .readByTypeRequest(startHandle: 0x11, endHandle: 0x11, type: .batteryLevel)
                    && reason == "handle 0x0012 is outside 0x0011…0x0011 or out of order"
            }
            await loopback.set(rewrite: { request, response in
                guard case .readByTypeRequest = request else { return response }
                return attHex("09 03 1100 07")
            })
            #expect(try await client.read(uuid: .batteryLevel, from: 0x10, through: 0x11)
                == [ATTPDU.HandleValue(handle: 0x11, value: [7])])
            #expect(await loopback.sent.count == 3)
        }
    }
}
