/// The hub class requests of USB 2.0 §11.24.2 that power switching needs, as setup packets.
package enum HubRequest {
    /// Hub class feature selector PORT_POWER (USB 2.0 Table 11-17).
    package static let portPowerFeature: UInt16 = 8
    /// Descriptor types: hub (USB 2.0 §11.23.2.1) and SuperSpeed hub (USB 3.2 §10.15.2.1).
    package static let hubDescriptorType: UInt8 = 0x29
    package static let superSpeedHubDescriptorType: UInt8 = 0x2A

    // bmRequestType: direction | class (0x20) | recipient (device 0, other 3).
    static let classDeviceIn: UInt8 = 0xA0
    static let classOtherIn: UInt8 = 0xA3
    static let classOtherOut: UInt8 = 0x23

    // Standard request codes reused by the hub class (USB 2.0 Table 11-16).
    static let getStatus: UInt8 = 0
    static let clearFeature: UInt8 = 1
    static let setFeature: UInt8 = 3
    static let getDescriptor: UInt8 = 6

    /// SetPortFeature(PORT_POWER): `23 03 08 00 pp 00 00 00`.
    package static func setPortPower(port: Int) -> SetupPacket {
        SetupPacket(requestType: classOtherOut, request: setFeature, value: portPowerFeature, index: UInt16(clamping: port), length: 0)
    }

    /// ClearPortFeature(PORT_POWER): `23 01 08 00 pp 00 00 00`.
    package static func clearPortPower(port: Int) -> SetupPacket {
        SetupPacket(requestType: classOtherOut, request: clearFeature, value: portPowerFeature, index: UInt16(clamping: port), length: 0)
    }

    /// GetPortStatus: `a3 00 00 00 pp 00 04 00`, answered by four bytes (wPortStatus, wPortChange).
    package static func getPortStatus(port: Int) -> SetupPacket {
        SetupPacket(requestType: classOtherIn, request: getStatus, value: 0, index: UInt16(clamping: port), length: 4)
    }

    /// GetHubDescriptor: `a0 06 00 29 00 00 LL LL` (or type 0x2a for a SuperSpeed hub).
    package static func getHubDescriptor(superSpeed: Bool, length: UInt16 = 71) -> SetupPacket {
        let type = superSpeed ? superSpeedHubDescriptorType : hubDescriptorType
        return SetupPacket(requestType: classDeviceIn, request: getDescriptor, value: UInt16(type) << 8, index: 0, length: length)
    }

    /// GET_DESCRIPTOR(BOS) (a standard request, USB 3.2 §9.6.2): `80 06 00 0f 00 00 LL LL`.
    package static func getBOSDescriptor(length: UInt16) -> SetupPacket {
        SetupPacket(requestType: 0x80, request: getDescriptor, value: 0x0F00, index: 0, length: length)
    }
}
