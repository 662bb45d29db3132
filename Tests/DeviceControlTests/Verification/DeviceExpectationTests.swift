import Testing
@testable import DeviceControl

@Suite struct DeviceExpectationTests {
    @Test func parsesEveryForm() {
        #expect(DeviceExpectation("2fe3:000b") == DeviceExpectation(id: USBID("2fe3:000b")))
        #expect(DeviceExpectation("2fe3:000b/ABC") == DeviceExpectation(id: USBID("2fe3:000b"), serial: "ABC"))
        #expect(DeviceExpectation("1-1.4.2") == DeviceExpectation(location: USBLocation("1-1.4.2")))
        #expect(DeviceExpectation("1-1.4.2=2fe3:000b") == DeviceExpectation(location: USBLocation("1-1.4.2"), id: USBID("2fe3:000b")))
        for bad in ["", "2fe3", "2fe3:000b/", "x=2fe3:000b", "1-1.4.2=zz", "dongle"] { #expect(DeviceExpectation(bad) == nil, "\(bad)") }
    }

    @Test func matching() {
        let device = USBPresence(location: USBLocation("1-1.4.2")!, id: USBID("2fe3:000b")!, serial: "ABC")
        #expect(DeviceExpectation("2fe3:000b")!.matches(device))
        #expect(DeviceExpectation("2fe3:000b/ABC")!.matches(device))
        #expect(!DeviceExpectation("2fe3:000b/XYZ")!.matches(device))
        #expect(DeviceExpectation("1-1.4.2")!.matches(device))
        #expect(!DeviceExpectation("1-1.4.3=2fe3:000b")!.matches(device))
        #expect(!DeviceExpectation("2fe3:000c")!.matches(device))
    }

    @Test func descriptions() {
        #expect(DeviceExpectation("1-1.4.2=2fe3:000b")!.description == "1-1.4.2 (2fe3:000b)")
        #expect(DeviceExpectation("2fe3:000b/ABC")!.description == "2fe3:000b/ABC")
    }
}
