import Testing
@testable import DeviceControl

@Suite struct PowerSwitchMonikerTests {
    @Test func parsesEveryForm() throws {
        #expect(try PowerSwitchMoniker("usb-hub:1-1.4") == .usbHub(USBLocation("1-1.4")!))
        #expect(try PowerSwitchMoniker("usb-hub:2") == .usbHub(USBLocation("2")!))
        #expect(try PowerSwitchMoniker("ykush:YK12345") == .ykush(serial: "YK12345"))
        #expect(try PowerSwitchMoniker("ykush:") == .ykush(serial: nil))
        #expect(try PowerSwitchMoniker("relay:dcttech:ABCDE") == .relay(vendor: "dcttech", serial: "ABCDE"))
        #expect(try PowerSwitchMoniker("relay:dcttech:") == .relay(vendor: "dcttech", serial: nil))
        #expect(try PowerSwitchMoniker("relay:dcttech:ABCDE").description == "relay:dcttech:ABCDE")
    }

    @Test(arguments: [
        ("usb-hub", "no kind before ':'"),
        ("usb-hub:1-1.x", "'1-1.x' is not a hub location"),
        ("usb-hub:", "'' is not a hub location"),
        ("relay:acme:AB", "relay vendor 'acme' is not supported"),
        ("relay:", "no relay vendor"),
        ("relay:dcttech:TOOLONG", "'TOOLONG' is not a relay board serial"),
        ("pdu:3", "unknown kind 'pdu'"),
        ("ykush:a:b", "'a:b' is not a YKUSH serial"),
    ])
    func badMonikersSayWhy(text: String, why: String) {
        let error = #expect(throws: PowerSwitchError.self) { try PowerSwitchMoniker(text) }
        #expect(error?.message.contains(why) == true, "\(error?.message ?? "")")
        #expect(error?.isUsageError == true)
    }

    @Test func monikerBecomesADescription() throws {
        let description = try PowerSwitchMoniker("usb-hub:1-1.4").description(ports: [2], method: .hubRequest, force: true, repeatOff: 3)
        #expect(description.name == "usb-hub:1-1.4")
        #expect(description.backend == .usbHub(hub: USBLocation("1-1.4")!, ports: [2], method: .hubRequest, force: true, repeatOff: 3))
    }

    @Test func durations() {
        #expect(Duration.parse("2s") == .seconds(2))
        #expect(Duration.parse("1.5") == .milliseconds(1500))
        #expect(Duration.parse("500ms") == .milliseconds(500))
        for bad in ["", "-1s", "two", "1h", "nan"] { #expect(Duration.parse(bad) == nil, "\(bad)") }
        #expect(Duration.seconds(3).seconds == "3 s")
        #expect(Duration.milliseconds(1500).seconds == "1.5 s")
        #expect(Duration.milliseconds(40).seconds == "40 ms")
    }

    @Test func permissionAdviceNamesNodeAndRule() {
        let message = PermissionAdvice.usbDevice(node: PermissionAdvice.deviceNode(bus: 1, address: 4), id: USBID("2109:2811")!, what: "hub 1-1.4")
        #expect(message.hasPrefix("permission denied opening /dev/bus/usb/001/004 (hub 1-1.4, 2109:2811)"))
        #expect(message.contains(#"SUBSYSTEM=="usb", ATTR{idVendor}=="2109", ATTR{idProduct}=="2811", MODE="0660", GROUP="plugdev""#))
        #expect(message.contains("scripts/install-udev-rules"))
        #expect(PermissionAdvice.sysfsWrite("/sys/bus/usb/devices/1-1.4:1.0/1-1.4-port2/disable").contains(#"DRIVER=="hub""#))
    }
}
