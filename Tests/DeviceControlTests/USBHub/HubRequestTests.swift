import Testing
@testable import DeviceControl

@Suite struct HubRequestTests {
    @Test func setPortPowerIsClassOtherSetFeature() {
        #expect(HubRequest.setPortPower(port: 2).bytes == [0x23, 0x03, 0x08, 0x00, 0x02, 0x00, 0x00, 0x00])
    }

    @Test func clearPortPowerIsClassOtherClearFeature() {
        #expect(HubRequest.clearPortPower(port: 7).bytes == [0x23, 0x01, 0x08, 0x00, 0x07, 0x00, 0x00, 0x00])
    }

    @Test func getPortStatusAsksForFourBytes() {
        let setup = HubRequest.getPortStatus(port: 3)
        #expect(setup.bytes == [0xA3, 0x00, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00])
        #expect(setup.isIn)
    }

    @Test func getHubDescriptorUsesTheTypeOfTheHub() {
        #expect(HubRequest.getHubDescriptor(superSpeed: false).bytes == [0xA0, 0x06, 0x00, 0x29, 0x00, 0x00, 71, 0x00])
        #expect(HubRequest.getHubDescriptor(superSpeed: true, length: 12).bytes == [0xA0, 0x06, 0x00, 0x2A, 0x00, 0x00, 12, 0x00])
    }

    @Test func getBOSDescriptorIsAStandardDeviceRequest() {
        #expect(HubRequest.getBOSDescriptor(length: 0x0116).bytes == [0x80, 0x06, 0x00, 0x0F, 0x00, 0x00, 0x16, 0x01])
    }

    @Test func setupPacketPrintsAsHex() {
        #expect(HubRequest.clearPortPower(port: 2).description == "23 01 08 00 02 00 00 00")
    }
}
