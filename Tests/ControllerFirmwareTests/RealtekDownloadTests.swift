@testable import ControllerFirmware
import Testing

/// The config appended to the patch, and the 252-octet Download fragments numbered as btrtl numbers them.
@Suite("Realtek download")
struct RealtekDownloadTests {
    typealias S = SyntheticFirmware

    @Test("A config's entries are read; the whole file is appended to the patch")
    func configAppended() throws {
        let bytes = S.config([(0x0C, [1, 2, 3, 4]), (0x30, [0xAA])])
        let config = try RealtekConfig(bytes: bytes, file: "c.bin")
        #expect(config.entries == [.init(offset: 0x0C, data: [1, 2, 3, 4]), .init(offset: 0x30, data: [0xAA])])
        let download = RealtekDownload(patch: [9, 9, 9], config: config)
        #expect(download.payload == [9, 9, 9] + bytes)
        #expect(download.patchLength == 3 && download.configLength == bytes.count)
        #expect(try RealtekConfig(bytes: S.config([]), file: "c.bin").entries.isEmpty)
    }

    @Test("A config with another signature, a length past its end or an entry past its entries is refused")
    func badConfig() throws {
        let good = S.config([(0x0C, [1, 2, 3, 4])])
        #expect(throws: FirmwareError(file: "c.bin", problem: "not a Realtek config: expected the signature 0x8723ab55, found 0x8723ab56")) {
            try RealtekConfig(bytes: S.config([], signature: 0x8723_AB56), file: "c.bin")
        }
        var longer = good
        longer[4] = 50
        #expect(throws: FirmwareError.self) { try RealtekConfig(bytes: longer, file: "c.bin") }
        var entryPast = good
        entryPast[8] = 9
        #expect(throws: FirmwareError.self) { try RealtekConfig(bytes: entryPast, file: "c.bin") }
        for length in 0..<good.count {
            #expect(throws: FirmwareError.self) { try RealtekConfig(bytes: Array(good.prefix(length)), file: "c.bin") }
        }
    }

    @Test("Fragments: 252 octets each, 0 to 0x7F then 1 to 0x7F again, bit 7 on the last")
    func numbering() {
        let fragments = RealtekDownload.fragments(length: 300 * 252 + 10)
        #expect(fragments.count == 301)
        #expect(fragments.prefix(128).map(\.index) == (0...0x7F).map { UInt8($0) })
        #expect(fragments[128].index == 1 && fragments[254].index == 0x7F && fragments[255].index == 1)
        // 301 fragments: 128 numbered 0…0x7F, then 173 numbered 1…0x7F and 1…0x2E; the last is 0x2E | 0x80.
        let last = RealtekDownload.Fragment(index: 0xAE, range: 75_600..<75_610)
        #expect(fragments.last == last)
        #expect(fragments.dropLast().allSatisfy { $0.range.count == 252 && $0.index & 0x80 == 0 })
        #expect(RealtekDownload.fragments(length: 10) == [.init(index: 0x80, range: 0..<10)])
    }

    @Test("A payload of a whole number of fragments ends in an empty one, as btrtl sends it")
    func wholeFragments() {
        let fragments = RealtekDownload.fragments(length: 2 * 252)
        #expect(fragments.map(\.index) == [0, 1, 0x82])
        #expect(fragments.last?.range == 504..<504)
    }

    @Test("btrtl's chip table: Read Local Version names the chip, its files and whether it needs its config")
    func chipTable() {
        let bu = RealtekChip.matching(lmpSubversion: 0x8761, hciRevision: 0xB, hciVersion: 0xA)
        #expect(bu?.name == "rtl8761bu" && bu?.firmwareFile == "rtl8761bu_fw.bin" && bu?.configFile == "rtl8761bu_config.bin")
        #expect(RealtekChip.matching(lmpSubversion: 0x8761, hciRevision: 0xB, hciVersion: 0xA, bus: .uart)?.name == "rtl8761btv")
        // The 8761CU's HCI version 0 in the table matches any.
        #expect(RealtekChip.matching(lmpSubversion: 0x8761, hciRevision: 0xE, hciVersion: 0x0C)?.name == "rtl8761cu")
        #expect(RealtekChip.matching(lmpSubversion: 0x8761, hciRevision: 0x99, hciVersion: 0xA) == nil)
        #expect(RealtekChip.matching(lmpSubversion: 0x8822, hciRevision: 0xB, hciVersion: 0x7)?.configNeeded == true)
        #expect(RealtekChip.matching(lmpSubversion: 0x1200, hciRevision: 0xB, hciVersion: 0x6)?.hasROMVersion == false)
        let c = RealtekChip.matching(lmpSubversion: 0x8852, hciRevision: 0xC, hciVersion: 0xC)
        #expect(c?.firmwareFiles == ["rtl8852cu_fw_v2.bin", "rtl8852cu_fw.bin"])
        #expect(RealtekChip.using(firmwareFile: "rtl8852cu_fw_v2.bin").map(\.name) == ["rtl8852cu"])
        #expect(RealtekChip.using(firmwareFile: "rtl8822cs_fw.bin").count == 2)
    }
}
