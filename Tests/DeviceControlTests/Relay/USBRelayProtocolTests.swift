import Testing
@testable import DeviceControl

@Suite struct USBRelayProtocolTests {
    @Test func setReportBytes() throws {
        let on = try USBRelayProtocol.setRelay(2, .on, relayCount: 2)
        #expect(on.setup.bytes == [0x21, 0x09, 0x00, 0x03, 0x00, 0x00, 0x08, 0x00])
        #expect(on.data == [0xFF, 0x02, 0, 0, 0, 0, 0, 0])
        let off = try USBRelayProtocol.setRelay(1, .off, relayCount: 1)
        #expect(off.data == [0xFD, 0x01, 0, 0, 0, 0, 0, 0])
    }

    @Test func getReportBytes() {
        #expect(USBRelayProtocol.getState.bytes == [0xA1, 0x01, 0x00, 0x03, 0x00, 0x00, 0x08, 0x00])
    }

    @Test func decodesSerialAndRelayBits() throws {
        let state = try USBRelayProtocol.decodeState([0x41, 0x42, 0x43, 0x44, 0x45, 0x00, 0x00, 0x05])
        #expect(state.serial == "ABCDE")
        #expect(state.relays == 0x05)
        #expect(USBRelayProtocol.state(of: 1, in: state.relays) == .on)
        #expect(USBRelayProtocol.state(of: 2, in: state.relays) == .off)
        #expect(USBRelayProtocol.state(of: 3, in: state.relays) == .on)
        #expect(try USBRelayProtocol.decodeState([0x51, 0x57, 0x31, 0x00, 0x00, 0, 0, 0]).serial == "QW1")
    }

    @Test func badReportsAndRelaysAreErrors() {
        #expect(throws: PowerSwitchError.self) { try USBRelayProtocol.decodeState([0x41, 0x42]) }
        #expect(throws: PowerSwitchError.self) { try USBRelayProtocol.decodeState([0x01, 0x42, 0x43, 0x44, 0x45, 0, 0, 0]) }
        let error = #expect(throws: PowerSwitchError.self) { try USBRelayProtocol.setRelay(3, .on, relayCount: 2) }
        #expect(error?.message == "USBRelay2 has relays 1…2; there is no relay 3")
    }

    @Test func relayCountFromProductString() {
        #expect(USBRelayProtocol.relayCount(product: "USBRelay4") == 4)
        #expect(USBRelayProtocol.relayCount(product: "USBRelay8") == 8)
        #expect(USBRelayProtocol.relayCount(product: "USBRelay3") == nil)
        #expect(USBRelayProtocol.relayCount(product: "HIDRelay") == nil)
        #expect(USBRelayProtocol.relayCount(product: nil) == nil)
    }
}
