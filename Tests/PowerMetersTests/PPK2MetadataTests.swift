@testable import PowerMeters
import Testing

/// GET_META_DATA's answer: the calibration of each range, defaults for what it leaves out, and a one-line
/// error for an answer that is not a PPK2's.
@Suite("PPK2 metadata")
struct PPK2MetadataTests {
    @Test("Each range's fields are read; what is left out keeps the Power Profiler's defaults; other keys are kept")
    func reads() throws {
        let metadata = try PPK2Metadata("Calibrated: 0\nR0: 1003.5\nGS0: 0.0001\nO2: 112.5\nUG4: 0.98\nHW: 9173\nIA: 56\nmode: 2\nEND\n")
        #expect(metadata.calibration.ranges[0].r == 1003.5)
        #expect(metadata.calibration.ranges[0].gs == 0.0001)
        #expect(metadata.calibration.ranges[2].o == 112.5)
        #expect(metadata.calibration.ranges[4].ug == 0.98)
        #expect(metadata.calibration.ranges[1] == PPK2Calibration.defaults.ranges[1])
        #expect(metadata.calibrated == "0" && metadata.hardware == "9173" && metadata.inputAmplifier == "56")
        #expect(metadata.other == ["mode": "2"])
    }

    @Test("A zero shunt keeps the nominal one (some PPK2s report 0), as ppk2-api keeps it")
    func zeroShunt() throws {
        #expect(try PPK2Metadata("R1: 0\nEND").calibration.ranges[1].r == PPK2Calibration.defaults.ranges[1].r)
    }

    @Test("Answers that are no PPK2's metadata: one line saying what was wrong")
    func malformed() {
        #expect(throws: PowerMeterError(.protocolViolation, "PPK2 metadata: no END line in 9 octets")) { try PPK2Metadata("R0: 1000\n") }
        #expect(throws: PowerMeterError(.protocolViolation, "PPK2 metadata: 'garbage' is not 'key: value'")) { try PPK2Metadata("garbage\nEND") }
        #expect(throws: PowerMeterError(.protocolViolation, "PPK2 metadata: GI3 is 'x1', not a number")) { try PPK2Metadata("GI3: x1\nEND") }
        #expect(throws: PowerMeterError(.protocolViolation, "PPK2 metadata: R0 is 'nan', not a number")) { try PPK2Metadata("R0: nan\nEND") }
    }

    @Test("isComplete: only once the END line has come")
    func completeness() {
        #expect(!PPK2Metadata.isComplete("R0: 1\nEN"))
        #expect(PPK2Metadata.isComplete("R0: 1\nEND\r\n"))
    }
}
