import Testing
@testable import DeviceControl

@Suite struct HubDescriptorTests {
    // Read in the kernel tier's guest with `hil usb --json` (QEMU 7.2, Linux 6.1).
    static let qemuHubPortPower: [UInt8] = [0x0A, 0x29, 0x08, 0x09, 0x00, 0x01, 0x00, 0x00, 0x00, 0xFF]
    static let qemuHubDefault: [UInt8] = [0x0A, 0x29, 0x08, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x00, 0xFF]
    static let xhciRootHubUSB2: [UInt8] = [0x09, 0x29, 0x04, 0x0A, 0x00, 0x0A, 0x00, 0x00, 0xFF]
    static let xhciRootHubUSB3: [UInt8] = [0x0C, 0x2A, 0x04, 0x0A, 0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    // As lsusb -v prints common hubs: an OHCI root hub (0x0012), a ganged 4-port hub (0x00e0).
    static let ohciRootHub: [UInt8] = [0x09, 0x29, 0x02, 0x12, 0x00, 0x02, 0x00, 0x00, 0xFF]
    static let gangedHub: [UInt8] = [0x09, 0x29, 0x04, 0xE0, 0x00, 0x32, 0x64, 0x00, 0xFF]

    @Test func qemuHubWithPortPowerIsPerPort() throws {
        let descriptor = try HubDescriptor(bytes: Self.qemuHubPortPower)
        #expect(descriptor.switchingMode == .perPort)
        #expect(descriptor.portCount == 8)
        #expect(descriptor.characteristics == 0x0009)
        #expect(descriptor.overCurrentProtection == "per-port")
        #expect(!descriptor.superSpeed)
        #expect(descriptor.deviceRemovable == [0x00, 0x00])
        #expect(descriptor.bytes == Self.qemuHubPortPower)
    }

    @Test func qemuHubWithoutPortPowerHasNoSwitching() throws {
        let descriptor = try HubDescriptor(bytes: Self.qemuHubDefault)
        #expect(descriptor.switchingMode == .none)
        #expect(descriptor.switchingExplanation == "no power switching (wHubCharacteristics 0x000a): its ports are always powered")
    }

    @Test func rootHubsReportNoSwitching() throws {
        #expect(try HubDescriptor(bytes: Self.xhciRootHubUSB2).switchingMode == .none)
        #expect(try HubDescriptor(bytes: Self.ohciRootHub).switchingMode == .none)
        let superSpeed = try HubDescriptor(bytes: Self.xhciRootHubUSB3)
        #expect(superSpeed.superSpeed)
        #expect(superSpeed.switchingMode == .none)
        #expect(superSpeed.powerOnToPowerGoodMilliseconds == 100)
    }

    @Test func gangedHubIsGanged() throws {
        let descriptor = try HubDescriptor(bytes: Self.gangedHub)
        #expect(descriptor.switchingMode == .ganged)
        #expect(descriptor.overCurrentProtection == "global")
        #expect(descriptor.switchingExplanation.contains("switching one port switches all 4"))
    }

    @Test(arguments: [
        ([UInt8](), "0 bytes"),
        ([0x09, 0x29, 0x04, 0x09, 0x00, 0x32], "6 bytes"),
        ([0x09, 0x02, 0x04, 0x09, 0x00, 0x32, 0x00, 0x00, 0xFF], "bDescriptorType 0x02"),
        ([0x09, 0x29, 0x00, 0x09, 0x00, 0x32, 0x00, 0x00, 0xFF], "bNbrPorts is 0"),
        ([0x0C, 0x29, 0x04, 0x09, 0x00, 0x32, 0x00, 0x00, 0xFF], "bLength 12 but 9 bytes"),
        ([0x09, 0x2A, 0x04, 0x09, 0x00, 0x32, 0x00, 0x00, 0xFF], "SuperSpeed hub descriptor has 12"),
        ([0x07, 0x29, 0x04, 0x09, 0x00, 0x32, 0x00], "no room for DeviceRemovable"),
    ])
    func malformedDescriptorsNameTheProblem(bytes: [UInt8], reason: String) {
        let error = #expect(throws: PowerSwitchError.self) { try HubDescriptor(bytes: bytes) }
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test func switchingModeFromCharacteristicsBits() {
        #expect(PowerSwitchingMode(hubCharacteristics: 0x0000) == .ganged)
        #expect(PowerSwitchingMode(hubCharacteristics: 0x00E9) == .perPort)
        #expect(PowerSwitchingMode(hubCharacteristics: 0x0002) == .none)
        #expect(PowerSwitchingMode(hubCharacteristics: 0x0003) == .none)
    }
}

@Suite struct HubSwitchabilityTests {
    @Test func gangedHubsAreRefusedWithTheReason() throws {
        let ganged = try HubDescriptor(bytes: HubDescriptorTests.gangedHub)
        var notes: [String] = []
        let error = #expect(throws: PowerSwitchError.self) {
            try HubPortActuator.checkSwitchable(hub: USBLocation("1-2")!, id: USBID("05e3:0608")!, descriptor: ganged, force: false, notes: &notes)
        }
        #expect(error?.kind == .refused)
        #expect(error?.message.hasPrefix("hub 1-2 (05e3:0608) has ganged power switching (wHubCharacteristics 0x00e0): switching one port switches all 4; refusing") == true)
        #expect(notes.isEmpty)
    }

    @Test func forcingSwitchesAnywayAndSaysSo() throws {
        let ganged = try HubDescriptor(bytes: HubDescriptorTests.gangedHub)
        var notes: [String] = []
        try HubPortActuator.checkSwitchable(hub: USBLocation("1-2")!, id: USBID("05e3:0608")!, descriptor: ganged, force: true, notes: &notes)
        #expect(notes == ["hub 1-2 (05e3:0608) has ganged power switching (wHubCharacteristics 0x00e0): switching one port switches all 4; switching anyway (forced)"])
    }

    @Test func perPortHubsPass() throws {
        var notes: [String] = []
        try HubPortActuator.checkSwitchable(hub: USBLocation("1-1")!, id: USBID("0409:55aa")!,
                                            descriptor: try HubDescriptor(bytes: HubDescriptorTests.qemuHubPortPower), force: false, notes: &notes)
        #expect(notes.isEmpty)
    }

    @Test func statusInterpretation() {
        let powered = PortStatus(status: 0x0103, change: 0, superSpeed: false)
        let off = PortStatus(status: 0x0000, change: 0, superSpeed: false)
        let hub = USBLocation("1-1")!
        #expect(HubPortActuator.interpret(hub: hub, port: 2, status: powered, sysfsDisabled: false)
                == PowerStatus(state: .on, detail: "1-1 port 2: 0x0103 power enable connect, sysfs disable=0"))
        #expect(HubPortActuator.interpret(hub: hub, port: 2, status: off, sysfsDisabled: nil).state == .off)
        #expect(HubPortActuator.interpret(hub: hub, port: 2, status: powered, sysfsDisabled: true).state
                == .unknown(reason: "sysfs says disabled but the hub reports port power on"))
    }

    @Test func combiningStatuses() {
        let on = PowerStatus(state: .on, detail: "a"), off = PowerStatus(state: .off, detail: "b")
        #expect(PowerStatus.combining([on, on]).state == .on)
        #expect(PowerStatus.combining([off, off]) == PowerStatus(state: .off, detail: "b; b"))
        #expect(PowerStatus.combining([on, off]).state == .unknown(reason: "outputs disagree"))
        #expect(PowerStatus.combining([]).state == .unknown(reason: "no outputs"))
    }
}
