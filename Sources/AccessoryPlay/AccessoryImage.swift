import MCUmgr

/// One slot of a played accessory's MCUboot flash as `central.json` lists it at the end (`images`): what an
/// MCUmgr client's image state read answers, with the hash as hex.
package struct AccessoryImage: Sendable, Encodable, Equatable {
    package var slot: Int
    package var version: String
    package var hash: String?
    package var active: Bool
    package var pending: Bool
    package var confirmed: Bool
    package var permanent: Bool
    package var bootable: Bool

    package init(_ state: MCUmgrImageState) {
        (slot, version, hash) = (state.slot, state.version, state.hash.map(Self.hex))
        (active, pending, confirmed) = (state.active, state.pending, state.confirmed)
        (permanent, bootable) = (state.permanent, state.bootable)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16) }.joined()
    }
}
