/// A PHY a link transmits on (Core v5.4 Vol 6 Part A §3.2; the HCI values of Vol 4 Part E §7.7.65.12:
/// 1 LE 1M, 2 LE 2M, 3 LE Coded).
package enum RadioPHY: UInt8, Sendable, Hashable, CaseIterable {
    case le1M = 1
    case le2M = 2
    case leCoded = 3

    /// The bit of this PHY in HCI's TX_PHYS/RX_PHYS fields (Vol 4 Part E §7.8.48: bit 0 1M, bit 1 2M, bit 2 Coded).
    package var hciBit: UInt8 { 1 << (rawValue - 1) }

    /// Fastest first: the order a controller picks from a set of acceptable PHYs.
    package static let fastestFirst: [RadioPHY] = [.le2M, .le1M, .leCoded]
}

/// The coding of LE Coded: S=8 or S=2 symbols per bit (Core v5.4 Vol 6 Part B §2.2).
package enum CodedScheme: Sendable, Hashable {
    case s2, s8
}

/// How long link-layer data PDUs take on the air (Core v5.4 Vol 6 Part B §2.1, §2.2 and §4.5).
///
/// An uncoded data PDU (§2.1) is a preamble (1 octet on LE 1M, 2 on LE 2M), a 4-octet access address, a
/// 2-octet header, the payload, a 4-octet MIC when the link is encrypted and the payload is not empty
/// (§2.4: "the MIC is not included in a PDU with an empty payload"), and a 3-octet CRC, at 8 µs per octet
/// on LE 1M and 4 µs on LE 2M. A coded PDU (§2.2) is 80 µs of preamble, then FEC block 1 — the access
/// address (256 µs), the coding indicator (16 µs) and TERM1 (24 µs), always at S=8 — then FEC block 2:
/// header, payload, MIC and CRC at 64 µs per octet (S=8) or 16 µs (S=2), and TERM2 (24 µs at S=8, 6 µs at
/// S=2). Consecutive PDUs of a connection event are T_IFS = 150 µs apart (§4.1.1).
package enum AirTime {
    /// T_IFS, the inter frame space (Vol 6 Part B §4.1.1), in µs.
    package static let interFrameSpace = 150

    /// The duration of FEC block 1 of a coded PDU (§2.2): preamble 80 µs + access address 256 µs + CI 16 µs
    /// + TERM1 24 µs.
    package static let codedBlock1 = 80 + 256 + 16 + 24

    /// The air time in µs of a data PDU with `payload` octets, MIC included when `encrypted` (and the payload
    /// is not empty).
    package static func pdu(payload: Int, phy: RadioPHY, coding: CodedScheme = .s8, encrypted: Bool = false) -> Int {
        let mic = encrypted && payload > 0 ? 4 : 0
        let afterAccessAddress = 2 + payload + mic + 3 // header, payload, MIC, CRC
        switch phy {
        case .le1M: return (1 + 4 + afterAccessAddress) * 8
        case .le2M: return (2 + 4 + afterAccessAddress) * 4
        case .leCoded:
            switch coding {
            case .s8: return codedBlock1 + afterAccessAddress * 64 + 24
            case .s2: return codedBlock1 + afterAccessAddress * 16 + 6
            }
        }
    }

    /// The largest payload (at most `octets`) whose PDU lasts at most `time` µs on `phy` (§4.5.10: a PDU
    /// respects both connEffectiveMaxTxOctets and connEffectiveMaxTxTime); at least 1 octet, so data always
    /// moves.
    package static func payload(octets: Int, time: Int, phy: RadioPHY, coding: CodedScheme = .s8, encrypted: Bool = false) -> Int {
        var payload = max(1, octets)
        while payload > 1, pdu(payload: payload, phy: phy, coding: coding, encrypted: encrypted) > time { payload -= 1 }
        return payload
    }

    /// One exchange of a connection event (§4.5.1, §4.5.6): the central's PDU, T_IFS, the peripheral's PDU,
    /// T_IFS, in µs.
    package static func exchange(central: Int, peripheral: Int) -> Int {
        central + interFrameSpace + peripheral + interFrameSpace
    }
}
