@testable import BenchOperations
import Testing

/// What `hil info` says of a controller's firmware: from the `usb:` firmware stage, else from Read Local Version.
@Suite struct FirmwareSummaryTests {
    @Test func aDownloadAtThisOpenNamesItsFiles() throws {
        let stage = ControllerFirmwareState.downloaded(chip: "rtl8761bu", file: "rtl_bt/rtl8761bu_fw.bin", config: "rtl_bt/rtl8761bu_config.bin",
                                                       romVersion: 1, fragments: 111, octets: 27814, version: 0x09A9_8A6B)
        let summary = try #require(FirmwareSummary(stage: stage, manufacturer: 93, lmpSubversion: 0x8A6B, hciRevision: 0x09A9, moniker: "usb:0"))
        #expect(summary.state == "patched" && summary.loadedByThisOpen)
        #expect(summary.file == "rtl_bt/rtl8761bu_fw.bin" && summary.config == "rtl_bt/rtl8761bu_config.bin" && summary.version == "0x09A98A6B")
        #expect(summary.summary == "patched firmware rtl_bt/rtl8761bu_fw.bin + rtl_bt/rtl8761bu_config.bin loaded into the rtl8761bu "
                + "(ROM version 1, 27814 octets in 111 fragments; fw version 0x09A98A6B)")
    }

    @Test func withoutAStageTheVersionTellsROMFromPatched() throws {
        let rom = try #require(FirmwareSummary(stage: nil, manufacturer: 93, lmpSubversion: 0x8761, hciRevision: 0x000B, moniker: "hci-socket:0"))
        #expect(rom.state == "rom" && rom.summary.contains("runs its ROM firmware"))
        let patched = try #require(FirmwareSummary(stage: nil, manufacturer: 93, lmpSubversion: 0x8A6B, hciRevision: 0x09A9, moniker: "hci-socket:0"))
        #expect(patched.state == "patched" && patched.version == "0x09A98A6B" && !patched.loadedByThisOpen)
        #expect(FirmwareSummary(stage: .notNeeded, manufacturer: 2, lmpSubversion: 0x8761, hciRevision: 0, moniker: "usb:0") == nil)
    }

    @Test func anIntelBootloaderBootedAtThisOpenNamesItsFiles() throws {
        let stage = ControllerFirmwareState.intelLoaded(generation: "TyP", file: "intel/ibt-0041-0041.sfi", ddc: "intel/ibt-0041-0041.ddc",
                                                        fragments: 2813, octets: 699_573, bootAddress: 0x0010_0800)
        let summary = try #require(FirmwareSummary(stage: stage, manufacturer: 2, lmpSubversion: 0x2200, hciRevision: 0, moniker: "usb:0"))
        #expect(summary.state == "operational" && summary.loadedByThisOpen)
        #expect(summary.file == "intel/ibt-0041-0041.sfi" && summary.config == "intel/ibt-0041-0041.ddc" && summary.version == nil)
        #expect(summary.summary == "operational firmware intel/ibt-0041-0041.sfi + intel/ibt-0041-0041.ddc loaded into the Intel TyP bootloader "
                + "(699573 octets in 2813 Secure Send fragments; booted at 0x100800)")
        let before = try #require(FirmwareSummary(stage: .intelOperational(generation: "TyP"), manufacturer: 2, lmpSubversion: 0, hciRevision: 0, moniker: "usb:0"))
        #expect(before.state == "operational" && !before.loadedByThisOpen && before.summary == "operational firmware on the Intel TyP, loaded before this open")
    }
}
