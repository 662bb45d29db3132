/// How a hub switches its ports' power, from bits 1:0 of wHubCharacteristics (USB 2.0 Table 11-13).
package enum PowerSwitchingMode: String, Sendable, Equatable, Codable {
    /// 01: each port switched on its own.
    case perPort = "per-port"
    /// 00: all ports switched at once; switching one switches all.
    case ganged
    /// 1x: no power switching (USB 1.0 hubs and most root hubs); ports are always powered.
    case none

    package init(hubCharacteristics: UInt16) {
        switch hubCharacteristics & 0x0003 {
        case 0x0000: self = .ganged
        case 0x0001: self = .perPort
        default: self = .none
        }
    }
}
