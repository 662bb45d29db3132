/// A hub descriptor: type 0x29 (USB 2.0 §11.23.2.1) or 0x2A (SuperSpeed, USB 3.2 §10.15.2.1).
package struct HubDescriptor: Hashable, Sendable {
    package let superSpeed: Bool
    package let portCount: Int
    package let characteristics: UInt16
    /// Time from power-on to power-good, in milliseconds (bPwrOn2PwrGood × 2).
    package let powerOnToPowerGoodMilliseconds: Int
    /// Bit n set: the device on port n is not removable.
    package let deviceRemovable: [UInt8]
    /// The descriptor as received (bLength bytes), for reports and bug trackers.
    package let bytes: [UInt8]

    package var switchingMode: PowerSwitchingMode { PowerSwitchingMode(hubCharacteristics: characteristics) }
    /// Bit 2: the hub is part of a compound device.
    package var isCompound: Bool { characteristics & 0x0004 != 0 }

    /// Over-current protection from bits 4:3.
    package var overCurrentProtection: String {
        switch (characteristics >> 3) & 0x03 {
        case 0: return "global"
        case 1: return "per-port"
        default: return "none"
        }
    }

    /// Decodes the bytes a GetHubDescriptor answered; the error names the byte that is wrong.
    package init(bytes: [UInt8]) throws {
        func bad(_ why: String) -> PowerSwitchError {
            PowerSwitchError(.deviceFailure, "hub descriptor \(bytes.map(byteHex).joined(separator: " ")): \(why)")
        }
        guard bytes.count >= 7 else { throw bad("\(bytes.count) bytes, a hub descriptor has at least 7") }
        let length = Int(bytes[0])
        guard length >= 7, length <= bytes.count else { throw bad("bLength \(length) but \(bytes.count) bytes received") }
        switch bytes[1] {
        case HubRequest.hubDescriptorType: superSpeed = false
        case HubRequest.superSpeedHubDescriptorType: superSpeed = true
        default: throw bad("bDescriptorType 0x\(byteHex(bytes[1])) is neither 0x29 (hub) nor 0x2a (SuperSpeed hub)")
        }
        self.bytes = Array(bytes.prefix(length))
        portCount = Int(bytes[2])
        guard portCount >= 1 else { throw bad("bNbrPorts is 0") }
        if superSpeed, portCount > 15 { throw bad("bNbrPorts \(portCount) > 15, the SuperSpeed limit") }
        characteristics = UInt16(bytes[3]) | UInt16(bytes[4]) << 8
        powerOnToPowerGoodMilliseconds = Int(bytes[5]) * 2
        if superSpeed {
            guard length >= 12 else { throw bad("bLength \(length), a SuperSpeed hub descriptor has 12") }
            deviceRemovable = Array(bytes[10..<12])
        } else {
            let removableBytes = (portCount + 1 + 7) / 8
            guard length >= 7 + removableBytes else {
                throw bad("bLength \(length) leaves no room for DeviceRemovable of \(portCount) ports")
            }
            deviceRemovable = Array(bytes[7..<(7 + removableBytes)])
        }
    }

    /// Why this hub can or cannot switch one port, for messages.
    package var switchingExplanation: String {
        let chars = "wHubCharacteristics \(wordHex(characteristics))"
        switch switchingMode {
        case .perPort: return "per-port power switching (\(chars))"
        case .ganged: return "ganged power switching (\(chars)): switching one port switches all \(portCount)"
        case .none: return "no power switching (\(chars)): its ports are always powered"
        }
    }
}
