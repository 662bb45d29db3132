/// A hub port's status as GetPortStatus returns it: wPortStatus and wPortChange (USB 2.0 Table 11-21,
/// 11-22; USB 3.2 Table 10-13, where the power bit moves from bit 8 to bit 9 and bits 5–8 hold the link state).
package struct PortStatus: Hashable, Sendable, CustomStringConvertible {
    package let status: UInt16
    package let change: UInt16
    /// Decoded with the SuperSpeed layout.
    package let superSpeed: Bool

    package var isConnected: Bool { status & 0x0001 != 0 }
    package var isEnabled: Bool { status & 0x0002 != 0 }
    package var isOverCurrent: Bool { status & 0x0008 != 0 }
    package var isResetting: Bool { status & 0x0010 != 0 }
    /// PORT_POWER: bit 8 on a USB 2 hub, bit 9 on a SuperSpeed hub.
    package var isPowered: Bool { status & (superSpeed ? 0x0200 : 0x0100) != 0 }
    package var isSuspended: Bool { !superSpeed && status & 0x0004 != 0 }
    package var isLowSpeed: Bool { !superSpeed && status & 0x0200 != 0 }
    package var isHighSpeed: Bool { !superSpeed && status & 0x0400 != 0 }

    /// SuperSpeed link state (bits 5–8) by its USB 3.2 name.
    package var linkState: String? {
        guard superSpeed else { return nil }
        let names = ["U0", "U1", "U2", "U3", "SS.Disabled", "Rx.Detect", "SS.Inactive", "Polling",
                     "Recovery", "Hot Reset", "Compliance", "Loopback"]
        let value = Int((status >> 5) & 0x0F)
        return value < names.count ? names[value] : "link state \(value)"
    }

    /// `0x0103 power connect enable`.
    package var description: String {
        var words = [wordHex(status)]
        words.append(isPowered ? "power" : "off")
        if let linkState { words.append(linkState) }
        if isHighSpeed { words.append("highspeed") }
        if isLowSpeed { words.append("lowspeed") }
        if isSuspended { words.append("suspend") }
        if isResetting { words.append("reset") }
        if isOverCurrent { words.append("overcurrent") }
        if isEnabled { words.append("enable") }
        if isConnected { words.append("connect") }
        return words.joined(separator: " ")
    }
}

extension PortStatus {
    /// Decodes the four bytes of a GetPortStatus answer; throws on any other length.
    package init(bytes: [UInt8], superSpeed: Bool) throws {
        guard bytes.count == 4 else {
            throw PowerSwitchError(.deviceFailure, "GetPortStatus answered \(bytes.count) bytes, expected 4: \(bytes.map(byteHex).joined(separator: " "))")
        }
        self.init(status: UInt16(bytes[0]) | UInt16(bytes[1]) << 8, change: UInt16(bytes[2]) | UInt16(bytes[3]) << 8, superSpeed: superSpeed)
    }
}
