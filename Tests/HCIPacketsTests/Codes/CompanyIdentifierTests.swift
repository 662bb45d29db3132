import Foundation
import Testing
@testable import HCIPackets

@Suite("CompanyIdentifier")
struct CompanyIdentifierTests {
    @Test("assigned numbers of common vendors", arguments: [
        (UInt16(0x0000), "Ericsson"),
        (0x0002, "Intel"),
        (0x0006, "Microsoft"),
        (0x0009, "Infineon"),
        (0x000A, "Qualcomm Technologies International"),
        (0x000D, "Texas Instruments"),
        (0x000F, "Broadcom"),
        (0x001D, "Qualcomm"),
        (0x0025, "NXP"),
        (0x0030, "ST Microelectronics"),
        (0x0046, "MediaTek"),
        (0x0048, "Marvell"),
        (0x004C, "Apple"),
        (0x0059, "Nordic Semiconductor"),
        (0x005D, "Realtek"),
        (0x006B, "Polar"),
        (0x0075, "Samsung"),
        (0x0087, "Garmin"),
        (0x00D2, "Dialog Semiconductor"),
        (0x00E0, "Google"),
        (0x0131, "Cypress Semiconductor"),
        (0x02E5, "Espressif"),
        (0x02FF, "Silicon Laboratories"),
        (0x05F1, "The Linux Foundation"),
    ])
    func knownVendors(id: UInt16, fragment: String) {
        let name = CompanyIdentifier(rawValue: id).name
        #expect(name?.contains(fragment) == true, "0x\(String(id, radix: 16)) is \(name ?? "nil")")
    }

    @Test("constants match the table")
    func constants() {
        #expect(CompanyIdentifier.apple.rawValue == 0x004C)
        #expect(CompanyIdentifier.nordicSemiconductor.rawValue == 0x0059)
        #expect(CompanyIdentifier.linuxFoundation.rawValue == 0x05F1)
        #expect(CompanyIdentifier.espressif.rawValue == 0x02E5)
        #expect(CompanyIdentifier.siliconLaboratories.rawValue == 0x02FF)
        #expect(CompanyIdentifier.google.name == "Google")
        #expect(CompanyIdentifier.xiaomi.name == "Xiaomi Inc.")
    }

    @Test("description formats")
    func descriptions() {
        #expect(CompanyIdentifier(rawValue: 0x05F1).description == "0x05F1 The Linux Foundation")
        #expect(CompanyIdentifier(rawValue: 0x1234).description == "0x1234 (unknown company)")
        #expect(CompanyIdentifier(rawValue: 0x1234).name == nil)
        #expect(CompanyIdentifier(0xFFFF).description == "0xFFFF (unknown company)")
    }

    @Test("table has 40-80 entries, all named, sorted, distinct")
    func table() {
        let all = CompanyIdentifier.allKnown
        #expect((40...80).contains(all.count))
        #expect(all.allSatisfy { ($0.name ?? "").isEmpty == false })
        #expect(all.map(\.rawValue) == all.map(\.rawValue).sorted())
        #expect(Set(all).count == all.count)
    }

    @Test("Codable as the number")
    func codable() throws {
        let data = try JSONEncoder().encode(CompanyIdentifier.apple)
        #expect(String(decoding: data, as: UTF8.self) == "76")
        #expect(try JSONDecoder().decode(CompanyIdentifier.self, from: data) == .apple)
    }
}
