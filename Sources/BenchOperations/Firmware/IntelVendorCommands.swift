import HCIPackets

/// Intel's vendor commands of the firmware stage, as Linux's btintel sends them. Intel Read Version (0xFC05)
/// is sent raw (`HCIHost.sendRaw`): its return parameters are read whole by `IntelVersion`.
enum IntelOpcodes {
    /// Intel Read Version: with the parameter 0xFF the TLV form, without it the legacy form.
    static let readVersion = HCIOpcode(ogf: 0x3F, ocf: 0x05)
    /// Intel Read Boot Params (SfP and WsP only: their file is named by its device revision).
    static let readBootParams = HCIOpcode(ogf: 0x3F, ocf: 0x0D)
}

/// Intel Secure Send (OGF 0x3F, OCF 0x09; btintel's `btintel_secure_send`): a fragment type octet, then up to
/// 252 octets of the .sfi; its Command Complete carries the status alone.
struct IntelSecureSend: HCICommand {
    static let opcode = HCIOpcode(ogf: 0x3F, ocf: 0x09)

    let type: UInt8
    let data: ArraySlice<UInt8>

    var parameters: [UInt8] { [type] + data }
}

/// Intel Reset (OGF 0x3F, OCF 0x01; btintel's `btintel_send_intel_reset`, `struct intel_reset`): soft reset
/// (0x00), patches enabled (0x01), no DDC reload (0x00), boot from the given address (0x01), the address.
struct IntelReset: HCICommand {
    static let opcode = HCIOpcode(ogf: 0x3F, ocf: 0x01)

    let bootAddress: UInt32

    var parameters: [UInt8] { [0x00, 0x01, 0x00, 0x01] + (0..<4).map { UInt8(truncatingIfNeeded: bootAddress >> (8 * $0)) } }
}

/// Intel Write DDC (OGF 0x3F, OCF 0x8B; btintel's `btintel_load_ddc_config`): one .ddc record, length octet included.
struct IntelWriteDDC: HCICommand {
    static let opcode = HCIOpcode(ogf: 0x3F, ocf: 0x8B)

    let record: ArraySlice<UInt8>

    var parameters: [UInt8] { Array(record) }
}

/// The Intel vendor event (code 0xFF) btintel's `btintel_recv_event` takes from a bootloader: its first
/// parameter says which, the rest its fixed-size body.
enum IntelVendorEvent {
    static let code: UInt8 = 0xFF
    /// The bootloader's "firmware loading complete" (`struct intel_secure_send_result`: result, opcode, status).
    static let secureSendResult: UInt8 = 0x06
    static let secureSendResultLength = 4
    /// The operational firmware's "bootup completed" (`struct intel_bootup`: 6 octets).
    static let bootup: UInt8 = 0x02
    static let bootupLength = 6

    /// The body of an Intel vendor event of `kind` with a body of `length` octets, as btintel accepts it.
    static func body(_ event: HCIEvent, kind: UInt8, length: Int) -> [UInt8]? {
        guard case .unknown(code, let parameters) = event, parameters.first == kind, parameters.count == 1 + length else { return nil }
        return Array(parameters.dropFirst())
    }
}
