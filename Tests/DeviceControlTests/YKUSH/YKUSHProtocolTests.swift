import Testing
@testable import DeviceControl

@Suite struct YKUSHProtocolTests {
    @Test func commandBytes() throws {
        #expect(try YKUSHProtocol.command(.off, port: 1, model: .ykush) == 0x01)
        #expect(try YKUSHProtocol.command(.on, port: 3, model: .ykush) == 0x13)
        #expect(try YKUSHProtocol.command(nil, port: 2, model: .ykush3) == 0x22)
        #expect(try YKUSHProtocol.command(.on, port: 1, model: .ykushXS) == 0x11)
        #expect(try YKUSHProtocol.command(.off, port: 1, model: .ykushXS) == 0x01)
        #expect(try YKUSHProtocol.command(nil, port: 1, model: .ykushXS) == 0x21)
    }

    @Test func portsOutsideTheBoardAreRejected() {
        let error = #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.command(.on, port: 2, model: .ykushXS) }
        #expect(error?.message == "YKUSH XS has port 1 only; there is no port 2")
        #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.command(.on, port: 4, model: .ykush) }
        #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.command(.on, port: 0, model: .ykush3) }
    }

    @Test func reportsAre64BytesOr6ForTheEarlyBoard() {
        let report = YKUSHProtocol.report(command: 0x12, legacy: false)
        #expect(report.count == 64)
        #expect(report[0] == 0x12 && report.dropFirst().allSatisfy { $0 == 0 })
        #expect(YKUSHProtocol.report(command: 0x02, legacy: true) == [0x02, 0x02, 0, 0, 0, 0])
    }

    @Test func statusAnswers() throws {
        #expect(try YKUSHProtocol.decodeStatus([0x01, 0x12] + [UInt8](repeating: 0, count: 62), port: 2, model: .ykush) == .on)
        #expect(try YKUSHProtocol.decodeStatus([0x01, 0x02], port: 2, model: .ykush3) == .off)
        #expect(try YKUSHProtocol.decodeStatus([0x01, 0x11], port: 1, model: .ykushXS) == .on)
        #expect(try YKUSHProtocol.decodeStatus([0x01, 0x01], port: 1, model: .ykushXS) == .off)
    }

    @Test func badStatusAnswersAreErrors() {
        let wrongPort = #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.decodeStatus([0x01, 0x13], port: 2, model: .ykush) }
        #expect(wrongPort?.message == "YKUSH answered for port 3 when asked about port 2: 01 13")
        #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.decodeStatus([0x00, 0x11], port: 1, model: .ykushXS) }
        #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.decodeStatus([0x01], port: 1, model: .ykush) }
        #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.decodeStatus([0x01, 0x52], port: 2, model: .ykush) }
        #expect(throws: PowerSwitchError.self) { try YKUSHProtocol.checkAcknowledgement([0x00, 0x11], model: .ykushXS) }
    }

    @Test func modelsByID() {
        #expect(YKUSHModel(id: USBID("04d8:f2f7")!) == .ykush)
        #expect(YKUSHModel(id: USBID("04d8:0042")!) == .ykush)
        #expect(YKUSHModel(id: USBID("04d8:f11b")!) == .ykush3)
        #expect(YKUSHModel(id: USBID("04d8:f0cd")!) == .ykushXS)
        #expect(YKUSHModel(id: USBID("04d8:0001")!) == nil)
    }
}
