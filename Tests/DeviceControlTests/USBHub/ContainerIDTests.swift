import Testing
@testable import DeviceControl

@Suite struct ContainerIDTests {
    static let uuid: [UInt8] = [0x5C, 0xF3, 0xEE, 0x30, 0xD5, 0x07, 0x4C, 0x5B, 0x9A, 0x3E, 0x0F, 0x10, 0x22, 0x33, 0x44, 0x55]
    // BOS: header, USB 2.0 extension (7 bytes), SuperSpeed capability (10 bytes), Container ID (20 bytes).
    static var bos: [UInt8] {
        let usb2Extension: [UInt8] = [0x07, 0x10, 0x02, 0x06, 0x00, 0x00, 0x00]
        let superSpeed: [UInt8] = [0x0A, 0x10, 0x03, 0x00, 0x0E, 0x00, 0x01, 0x0A, 0xFF, 0x07]
        let container: [UInt8] = [0x14, 0x10, 0x04, 0x00] + uuid
        let body = usb2Extension + superSpeed + container
        let total = 5 + body.count
        return [0x05, 0x0F, UInt8(total), 0x00, 0x03] + body
    }

    @Test func findsTheContainerIDCapability() throws {
        let id = try ContainerID.fromBOS(Self.bos)
        #expect(id?.bytes == Self.uuid)
        #expect(id?.description == "5cf3ee30-d507-4c5b-9a3e-0f1022334455")
    }

    @Test func noContainerIDIsNil() throws {
        let bos: [UInt8] = [0x05, 0x0F, 0x0C, 0x00, 0x01, 0x07, 0x10, 0x02, 0x06, 0x00, 0x00, 0x00]
        #expect(try ContainerID.fromBOS(bos) == nil)
    }

    @Test func malformedBOSIsAnError() {
        #expect(throws: PowerSwitchError.self) { try ContainerID.fromBOS([0x09, 0x02, 0x00]) }
        // Total length longer than the bytes.
        #expect(throws: PowerSwitchError.self) { try ContainerID.fromBOS([0x05, 0x0F, 0x40, 0x00, 0x01]) }
        // A capability of length 1 would loop forever if not rejected.
        #expect(throws: PowerSwitchError.self) { try ContainerID.fromBOS([0x05, 0x0F, 0x08, 0x00, 0x01, 0x01, 0x10, 0x02]) }
    }
}
