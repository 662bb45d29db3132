import Testing
@testable import DeviceControl

@Suite struct PortStatusTests {
    @Test func usb2PoweredConnectedEnabledPort() throws {
        // What QEMU's hub answered for a port with a keyboard: 03 01 00 00.
        let status = try PortStatus(bytes: [0x03, 0x01, 0x00, 0x00], superSpeed: false)
        #expect(status.isPowered && status.isConnected && status.isEnabled)
        #expect(!status.isHighSpeed && !status.isLowSpeed)
        #expect(status.description == "0x0103 power enable connect")
    }

    @Test func usb2UnpoweredPort() throws {
        let status = try PortStatus(bytes: [0x00, 0x00, 0x01, 0x00], superSpeed: false)
        #expect(!status.isPowered)
        #expect(status.change == 0x0001)
        #expect(status.description == "0x0000 off")
    }

    @Test func usb2HighSpeedAndLowSpeedBits() throws {
        #expect(try PortStatus(bytes: [0x03, 0x05, 0, 0], superSpeed: false).isHighSpeed)
        #expect(try PortStatus(bytes: [0x03, 0x03, 0, 0], superSpeed: false).isLowSpeed)
    }

    @Test func superSpeedPowerIsBitNine() throws {
        // xHCI SuperSpeed root hub port with nothing attached: 0x02a0 = power, Rx.Detect.
        let status = try PortStatus(bytes: [0xA0, 0x02, 0x00, 0x00], superSpeed: true)
        #expect(status.isPowered)
        #expect(status.linkState == "Rx.Detect")
        // The USB 2 power bit (8) means nothing on a SuperSpeed port: 0x0100 is link state 8, unpowered.
        let other = try PortStatus(bytes: [0x00, 0x01, 0x00, 0x00], superSpeed: true)
        #expect(!other.isPowered)
        #expect(other.linkState == "Recovery")
    }

    @Test func superSpeedDisabledPortIsOff() throws {
        let status = try PortStatus(bytes: [0x80, 0x00, 0x00, 0x00], superSpeed: true)
        #expect(!status.isPowered)
        #expect(status.linkState == "SS.Disabled")
    }

    @Test(arguments: [[UInt8](), [0x03], [0x03, 0x01, 0x00], [0x03, 0x01, 0x00, 0x00, 0x00]])
    func wrongLengthIsAnError(bytes: [UInt8]) {
        #expect(throws: PowerSwitchError.self) { try PortStatus(bytes: bytes, superSpeed: false) }
    }
}
