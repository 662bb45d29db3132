@testable import PowerMeters
import Testing

/// The sample stream: words split anywhere across reads, the fields of a word, and a range error.
@Suite("PPK2 decoder")
struct PPK2DecoderTests {
    /// A word as the PPK2's documentation lays it out: reading in bits 0–13, range 14–16, logic 24–31.
    static func word(reading: UInt32, range: UInt32, logic: UInt32) -> [UInt8] {
        let value = reading | range << 14 | logic << 24
        return [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    @Test("A word's fields: the reading scaled by 4, its range and the logic inputs")
    func fields() throws {
        var decoder = PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000)
        let samples = try decoder.decode(Self.word(reading: 1000, range: 1, logic: 0xA5))
        #expect(samples.count == 1)
        #expect(samples[0].range == 1 && samples[0].logic == 0xA5)
        // 4000 counts of 1.8 V / 163,840 over the nominal 101.65 Ω shunt, with ppk2-api's default gains
        // (quadratic and linear both 1: x · (x + 1)).
        let amperes = 4000 * 1.8 / 163_840 / 101.65
        #expect(abs(samples[0].microamperes - amperes * (amperes + 1) * 1e6) < 1e-9)
    }

    @Test("Words split anywhere across reads give the same samples as whole words")
    func splitWords() throws {
        var stream: [UInt8] = []
        for index in 0..<50 {
            let reading = UInt32(100 + index * 37), range = UInt32(index / 10 % 5)
            stream += Self.word(reading: reading, range: range, logic: UInt32(index))
        }
        var whole = PPK2Decoder(calibration: .defaults, supplyMillivolts: 1800)
        let expected = try whole.decode(stream)
        for size in [1, 3, 5, 7] {
            var split = PPK2Decoder(calibration: .defaults, supplyMillivolts: 1800)
            var samples: [PPK2Sample] = []
            for start in stride(from: 0, to: stream.count, by: size) {
                samples += try split.decode(stream[start..<min(start + size, stream.count)])
            }
            #expect(samples == expected, "reads of \(size) octets")
        }
        #expect(expected.count == 50)
    }

    @Test("A range past 4 is a range error naming the word")
    func rangeError() {
        var decoder = PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000)
        #expect(throws: PowerMeterError(.protocolViolation, "PPK2 range error: sample 0x1c000 names range 7 (the PPK2 has ranges 0 to 4)")) {
            try decoder.decode(Self.word(reading: 0, range: 7, logic: 0))
        }
    }

    @Test("Figures: average, charge and energy of equally spaced samples")
    func figures() {
        let figures = CurrentFigures(microamperes: [10, 20, 30, 40], samplesPerSecond: 100_000, supplyVolts: 3)
        #expect(figures.samples == 4 && figures.seconds == 4e-5)
        #expect(figures.averageMicroamperes == 25)
        #expect(abs(figures.chargeMicrocoulombs - 1e-3) < 1e-15)
        #expect(abs(figures.energyMicrojoules - 3e-3) < 1e-15)
    }
}
