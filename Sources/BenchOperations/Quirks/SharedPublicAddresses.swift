import HCIPackets

/// Public addresses that do not identify one controller: the zero address (BlueZ's `BDADDR_ANY`, which Linux
/// treats as no address: `HCI_QUIRK_INVALID_BDADDR`), the address CSR8510 clones ship with by the thousand,
/// and the defaults Broadcom chips report until configured (drivers/bluetooth/btbcm.c, `btbcm_check_bdaddr`,
/// which marks them invalid too). Two such dongles on one bench, or one beside a phone that bonded with
/// another, would be the same device to every peer.
package enum SharedPublicAddresses {
    /// Each address and why it cannot be trusted.
    package static let known: [BDAddress: String] = [
        BDAddress(0x00_00_00_00_00_00): "the zero address (no public address configured)",
        BDAddress(0x00_1A_7D_DA_71_13): "the address CSR8510 A10 clones (0a12:0001) share",
        BDAddress(0x00_20_70_02_A0_00): "the default of an unconfigured Broadcom BCM20702A0 (btbcm)",
        BDAddress(0x20_70_02_A0_00_00): "the default of an unconfigured Broadcom BCM20702A1 (btbcm)",
        BDAddress(0x20_76_A0_00_56_79): "the default of an unconfigured Broadcom BCM2076B1 (btbcm)",
        BDAddress(0x43_24_B3_00_00_00): "the default of an unconfigured Broadcom BCM4324B3 (btbcm)",
        BDAddress(0x43_30_B1_00_00_00): "the default of an unconfigured Broadcom BCM4330B1 (btbcm)",
        BDAddress(0x43_34_B0_00_00_00): "the default of an unconfigured Broadcom BCM4334B0 (btbcm)",
        BDAddress(0x43_43_A0_12_1F_AC): "the default of an unconfigured Broadcom BCM43430A0 (btbcm)",
        BDAddress(0x43_45_C5_00_1F_AC): "the default of an unconfigured Broadcom BCM4345C5 (btbcm)",
        BDAddress(0x43_34_1B_00_1F_AC): "the default of an unconfigured Broadcom BCM43341B (btbcm)",
    ]

    /// Why `address` cannot be used as the controller's own, or nil when it can.
    package static func reason(_ address: BDAddress) -> String? { known[address] }
}
