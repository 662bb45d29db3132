import Foundation
import Testing
@testable import HCIPackets

@Suite("AddressType")
struct AddressTypeTests {
    @Test("HCI values and descriptions")
    func values() {
        #expect(AddressType.public.rawValue == 0)
        #expect(AddressType.random.rawValue == 1)
        #expect(AddressType.publicIdentity.rawValue == 2)
        #expect(AddressType.randomIdentity.rawValue == 3)
        #expect(AddressType.allCases.map(\.description) == ["public", "random", "public identity", "random identity"])
        #expect(AddressType(rawValue: 4) == nil)
    }

    @Test("random-ness")
    func randomness() {
        #expect(AddressType.random.isRandom && AddressType.randomIdentity.isRandom)
        #expect(!AddressType.public.isRandom && !AddressType.publicIdentity.isRandom)
    }

    @Test("Codable as the number")
    func codable() throws {
        let data = try JSONEncoder().encode(AddressType.randomIdentity)
        #expect(String(decoding: data, as: UTF8.self) == "3")
        #expect(try JSONDecoder().decode(AddressType.self, from: data) == .randomIdentity)
    }
}
