@testable import ControllerFirmware
import Testing

/// Intel Read Version in both forms, as btintel.h lays them out (`struct intel_version`, the `INTEL_TLV_*`
/// entries), and the file names btintel derives from them (`btintel_get_fw_name`, `btintel_get_fw_name_tlv`),
/// checked against the names Debian's firmware-iwlwifi ships.
@Suite("Intel Read Version")
struct IntelVersionTests {
    /// An AX210 (TyP) bootloader: CNVi and CNVr top type 0x410, step 0; platform 0x37, variant 0x17.
    static func ax210(image: UInt8 = 0x01) -> [UInt8] {
        var version = IntelVersionTLV()
        version.cnviTop = 0x0000_0410
        version.cnvrTop = 0x0000_0410
        version.cnviBT = 0x0017_3700
        version.imageType = image
        version.sbeType = 0x01
        version.minimumFirmware = IntelFirmwareBuild(number: 1, week: 2, year: 21)
        version.otpBDAddress = [1, 2, 3, 4, 5, 6]
        return version.entries
    }

    @Test("An AX210's TLV form: bootloader, TyP, and the file Debian ships for it (ibt-0041-0041)")
    func ax210Bootloader() throws {
        let version = try IntelVersion(returnParameters: Self.ax210())
        guard case .tlv(let tlv) = version else { Issue.record("read as \(version)"); return }
        #expect(version.isBootloader && !version.isOperational)
        #expect(tlv.hardwarePlatform == 0x37 && tlv.hardwareVariant == 0x17 && version.generation == "TyP")
        #expect(tlv.sbeType == 1 && tlv.minimumFirmware == IntelFirmwareBuild(number: 1, week: 2, year: 21))
        #expect(tlv.otpBDAddress == [1, 2, 3, 4, 5, 6])
        #expect(tlv.firmwareName(suffix: "sfi") == "intel/ibt-0041-0041.sfi")
        #expect(tlv.firmwareName(suffix: "ddc") == "intel/ibt-0041-0041.ddc")
        #expect(try IntelVersion(returnParameters: Self.ax210(image: 0x03)).isOperational)
    }

    @Test("The packed tops: type << 4 | step, byte-swapped, as the names of Debian's files have them")
    func packedTops() {
        // ibt-0040-4150: CNVi type 0x400 step 0, CNVr type 0x504 (HrP2) step 1; ibt-0291: GaP2 (0x910) step 2.
        #expect(IntelVersionTLV.packedTop(0x0000_0400) == 0x0040)
        #expect(IntelVersionTLV.packedTop(0x0100_0504) == 0x4150)
        #expect(IntelVersionTLV.packedTop(0x0200_0910) == 0x0291)
        // Bits 12–23 are not part of it.
        #expect(IntelVersionTLV.packedTop(0x00AB_C410) == 0x0041)
    }

    @Test("Types btintel does not keep are skipped; a short or overrunning entry is an error naming it")
    func tlvErrors() throws {
        let unknown: [UInt8] = [0x24, 3, 0x41, 0x42, 0x43] + Self.ax210()
        #expect(try IntelVersion(returnParameters: unknown).isBootloader)
        #expect(throws: FirmwareError(file: IntelVersion.source, problem: "the TLV entry of type 0x1c is 4 octets from offset 2, past the end (3 octets)")) {
            try IntelVersion(returnParameters: [0x1C, 4, 1])
        }
        #expect(throws: FirmwareError(file: IntelVersion.source, problem: "a TLV entry header at offset 3 runs past the end (4 octets)")) {
            try IntelVersion(returnParameters: [0x1C, 1, 1, 0x10])
        }
        #expect(throws: FirmwareError(file: IntelVersion.source, problem: "the TLV entry cnviTop (type 0x10) (4 octets at offset 0) runs past the end of the file (2 octets)")) {
            try IntelVersion(returnParameters: [0x10, 2, 0x10, 0x04])
        }
    }

    @Test("The legacy form: 9 octets from platform 0x37; btintel's names for SfP/WsP and JfP…CcP")
    func legacy() throws {
        // A 9260 in its bootloader: JfP (0x11), hardware revision 16, firmware revision 1 → ibt-17-16-1, in Debian's package.
        let version = try IntelVersion(returnParameters: [0x37, 0x11, 16, 0x06, 1, 0, 0, 0, 0])
        guard case .legacy(let legacy) = version else { Issue.record("read as \(version)"); return }
        #expect(version.isBootloader && version.generation == "JfP")
        #expect(legacy.firmwareName(suffix: "sfi") == "intel/ibt-17-16-1.sfi")
        #expect(IntelLegacyVersion(hwVariant: 0x14, hwRevision: 1, fwVariant: 0x23, fwRevision: 3).firmwareName(suffix: "ddc") == "intel/ibt-20-1-3.ddc")
        #expect(IntelLegacyVersion(hwVariant: 0x0B, hwRevision: 0, fwVariant: 0x06, fwRevision: 0).firmwareName(suffix: "sfi", devRevID: 5) == "intel/ibt-11-5.sfi")
        #expect(IntelLegacyVersion(hwVariant: 0x0B, hwRevision: 0, fwVariant: 0x06, fwRevision: 0).firmwareName(suffix: "sfi") == nil)
        #expect(IntelLegacyVersion(hwVariant: 0x08, hwRevision: 0, fwVariant: 0x06, fwRevision: 0).firmwareName(suffix: "sfi") == nil)
        #expect(try IntelVersion(returnParameters: [0x37, 0x12, 16, 0x23, 1, 0, 0, 0, 0]).isOperational)
        // Nine octets of another platform are read as TLV entries, as btintel reads them.
        #expect(throws: FirmwareError.self) { try IntelVersion(returnParameters: [0x36, 0x11, 16, 0x06, 1, 0, 0, 0, 0]) }
    }
}
