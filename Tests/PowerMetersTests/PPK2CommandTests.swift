@testable import PowerMeters
import Testing

/// The octets of each command, against what ppk2-api 0.9.2 (Nordic's PPK2 protocol in Python) sends.
@Suite("PPK2 commands")
struct PPK2CommandTests {
    @Test("The regulator at 800 mV is 0x0D 3 32, as ppk2-api documents its lowest setting, and rises by one a millivolt")
    func regulator() {
        #expect(PPK2Command.regulator(millivolts: 800).octets == [0x0D, 3, 32])
        #expect(PPK2Command.regulator(millivolts: 801).octets == [0x0D, 3, 33])
        // ppk2-api: 3000 mV is 2232 steps past its 32 offset: 3 + 2232 / 256 = 11, 2232 % 256 = 184.
        #expect(PPK2Command.regulator(millivolts: 3000).octets == [0x0D, 11, 184])
    }

    @Test("The regulator is clamped to 800–5000 mV as ppk2-api clamps it")
    func clamped() {
        #expect(PPK2Command.regulator(millivolts: 100).octets == PPK2Command.regulator(millivolts: 800).octets)
        #expect(PPK2Command.regulator(millivolts: 9000).octets == PPK2Command.regulator(millivolts: 5000).octets)
    }

    @Test("Mode, DUT power and the stream, as ppk2-api's use_ampere_meter, use_source_meter, toggle_DUT_power, start/stop_measuring")
    func others() {
        #expect(PPK2Command.mode(.ampere).octets == [17, 1])
        #expect(PPK2Command.mode(.source).octets == [17, 2])
        #expect(PPK2Command.devicePower(on: true).octets == [12, 1])
        #expect(PPK2Command.devicePower(on: false).octets == [12, 0])
        #expect(PPK2Command.startSampling.octets == [6])
        #expect(PPK2Command.stopSampling.octets == [7])
        #expect(PPK2Command.metadata.octets == [25])
    }
}
