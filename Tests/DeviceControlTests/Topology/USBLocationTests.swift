import Testing
@testable import DeviceControl

@Suite struct USBLocationTests {
    @Test func parsesAndPrintsLocations() {
        #expect(USBLocation("1-1.4.2")?.bus == 1)
        #expect(USBLocation("1-1.4.2")?.ports == [1, 4, 2])
        #expect(USBLocation("1-1.4.2")?.description == "1-1.4.2")
        #expect(USBLocation("3")?.isRootHub == true)
        #expect(USBLocation("usb3") == USBLocation("3"))
    }

    @Test(arguments: ["", "-1", "1-", "1-.2", "1-1..2", "0-1", "1-0", "1-01", "256-1", "a-1", "1-1.4.x", "1-1.2.3.4.5.6.7.8", "usb1-2", "1:1"])
    func rejectsMalformedLocations(text: String) {
        #expect(USBLocation(text) == nil)
    }

    @Test func familyRelations() throws {
        let device = try #require(USBLocation("1-1.4.2"))
        #expect(device.parent == USBLocation("1-1.4"))
        #expect(device.portOnParent == 2)
        #expect(device.isWithin(USBLocation("1-1")!))
        #expect(!device.isWithin(USBLocation("1-1.3")!))
        #expect(!device.isWithin(USBLocation("2-1")!))
        #expect(USBLocation("1-1.4")?.child(port: 3) == USBLocation("1-1.4.3"))
        #expect(USBLocation("1")?.parent == nil)
        #expect(device.portPath == "1.4.2")
    }

    @Test func sysfsNames() {
        let hub = USBLocation("1-1.4")!
        #expect(hub.sysfsDeviceName == "1-1.4")
        #expect(hub.sysfsHubInterfaceName == "1-1.4:1.0")
        #expect(hub.sysfsPortName(2) == "1-1.4-port2")
        let root = USBLocation("2")!
        #expect(root.sysfsDeviceName == "usb2")
        #expect(root.sysfsHubInterfaceName == "2-0:1.0")
        #expect(root.sysfsPortName(4) == "usb2-port4")
    }

    @Test func portNamesParseBack() {
        #expect(USBLocation.parsePortName("1-1.4-port2")?.hub == USBLocation("1-1.4"))
        #expect(USBLocation.parsePortName("1-1.4-port2")?.port == 2)
        #expect(USBLocation.parsePortName("usb2-port3")?.hub == USBLocation("2"))
        #expect(USBLocation.parsePortName("1-1.4") == nil)
        #expect(USBLocation.parsePortName("1-1.4-portX") == nil)
    }

    @Test func ordering() {
        let sorted = ["2-1", "1-1.10", "1-1.2", "1", "1-1"].compactMap(USBLocation.init).sorted()
        #expect(sorted.map(\.description) == ["1", "1-1", "1-1.2", "1-1.10", "2-1"])
    }

    @Test func usbIDs() {
        #expect(USBID("2fe3:000B") == USBID(vendor: 0x2FE3, product: 0x000B))
        #expect(USBID(vendor: 0x0A12, product: 1).description == "0a12:0001")
        for bad in ["2fe3", "2fe3:0b", "2fe3:000g", "2fe3:000b:1", ":"] { #expect(USBID(bad) == nil, "\(bad)") }
    }
}
