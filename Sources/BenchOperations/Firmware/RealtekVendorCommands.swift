import HCIPackets

/// Realtek's vendor Read ROM Version (OGF 0x3F, OCF 0x6D; btrtl's `rtl_read_rom_version`, Bumble's
/// `HCI_RTK_Read_ROM_Version_Command`): its return parameters are the status and the ROM version, which
/// picks the epatch's patch (the patch of chip ID or ECO version + 1).
struct RealtekReadROMVersion: HCICommand {
    static let opcode = HCIOpcode(ogf: 0x3F, ocf: 0x6D)

    static func decodeResponse(_ reader: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt8 {
        try reader.u8("ROM_Version")
    }
}

/// Realtek's vendor Download (OGF 0x3F, OCF 0x20; btrtl's `rtl_download_cmd`, Bumble's
/// `HCI_RTK_Download_Command`): an index octet (bit 7 on the last) then up to 252 octets of the payload.
/// Its Command Complete carries the status and the index (btrtl's `rtl_download_response`).
struct RealtekDownloadFragment: HCICommand {
    static let opcode = HCIOpcode(ogf: 0x3F, ocf: 0x20)

    let index: UInt8
    let data: ArraySlice<UInt8>

    var parameters: [UInt8] { [index] + data }

    static func decodeResponse(_ reader: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt8 {
        try reader.u8("Index")
    }
}
