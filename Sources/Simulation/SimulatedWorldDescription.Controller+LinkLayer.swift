import HCIPackets

extension SimulatedWorldDescription.Controller {
    /// The LE_Features it reports (LE Read Local Supported Features, and to peers): `leFeatures` with the
    /// bits its link layer's configuration decides (Core v5.4 Vol 6 Part B §4.6): LE Data Packet Length
    /// Extension (bit 5) when `maxDataLength` exceeds 27, LE 2M PHY (bit 8) and LE Coded PHY (bit 11) as
    /// `phys` says.
    package var reportedLEFeatures: LEFeatures {
        var features = leFeatures.subtracting([.leDataPacketLengthExtension, .le2MPHY, .leCodedPHY])
        if maxDataLength > 27 { features.insert(.leDataPacketLengthExtension) }
        if phys.contains(.le2M) { features.insert(.le2MPHY) }
        if phys.contains(.leCoded) { features.insert(.leCodedPHY) }
        return features
    }

    /// supportedMaxTxOctets/Time (= RX, Vol 6 Part B §4.5.10): `maxDataLength` octets, and the time of the
    /// longest PDU of that payload on the slowest PHY it supports, MIC included (17,040 µs for 251 octets on
    /// LE Coded S=8; 2,120 µs on LE 1M), never below 328 µs.
    package var supportedDataLength: DataLength {
        let octets = Int(maxDataLength)
        let longest = phys.map { AirTime.pdu(payload: octets, phy: $0, coding: .s8, encrypted: true) }.max() ?? 328
        return DataLength(octets: maxDataLength, time: UInt16(clamping: max(328, longest)))
    }

    /// The HCI TX_PHYS/RX_PHYS bits of the PHYs it supports.
    var phyBits: UInt8 { phys.reduce(0) { $0 | $1.hciBit } }
}
