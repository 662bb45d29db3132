@testable import PowerMeters
import Testing

/// The sample stream: words split anywhere across reads, the fields of a word, and a range error.
@Suite("PPK2 decoder")
struct PPK2DecoderTests {
    /// A word as the PPK2 lays it out (the nRF Connect Power Profiler's masks): reading in bits 0–13, range 14–16,
    /// the sample counter 18–23 (modulo 64), logic 24–31.
    static func word(reading: UInt32, range: UInt32, counter: Int = 0, logic: UInt32) -> [UInt8] {
        let value = reading | range << 14 | UInt32(counter & 0x3F) << 18 | logic << 24
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
            stream += Self.word(reading: reading, range: range, counter: index, logic: UInt32(index))
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

    /// The nRF Connect Power Profiler reads bits 18–23 of each word as a counter one more each sample (modulo 64)
    /// and takes a jump in it for samples lost on the way, putting empty samples in their place.
    @Test("A jump in the sample counter is samples lost: each counted as the sample before the gap, so time keeps")
    func counterGap() throws {
        var decoder = PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000)
        var stream: [UInt8] = []
        for (reading, counter) in [(100, 0), (200, 1), (300, 2), (400, 6), (500, 7)] {
            stream += Self.word(reading: UInt32(reading), range: 1, counter: counter, logic: 0)
        }
        var gaps: [Range<Int>] = []
        let samples = try decoder.decode(stream, gaps: &gaps)
        let whole = try [100, 200, 300, 400, 500].map { reading in
            var alone = PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000)
            return try alone.decode(Self.word(reading: UInt32(reading), range: 1, logic: 0))[0]
        }
        #expect(samples == [whole[0], whole[1], whole[2], whole[2], whole[2], whole[2], whole[3], whole[4]])
        #expect(decoder.lostSamples == 3)
        #expect(gaps == [3..<6], "the three samples after the one read with counter 2 stand in for those lost")
    }

    @Test("The counter wraps from 63 to 0 with nothing lost; a gap across reads and across the wrap counts its samples")
    func counterWraps() throws {
        var decoder = PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000)
        let wrapping = [62, 63, 0, 1].flatMap { Self.word(reading: 1000, range: 0, counter: $0, logic: 0) }
        #expect(try decoder.decode(wrapping).count == 4)
        #expect(decoder.lostSamples == 0)
        // Then 60 and 0 (1 was the last): 2 to 59 lost (58), then 61 to 63 (3), across two reads.
        let next = Self.word(reading: 1000, range: 0, counter: 60, logic: 0) + Self.word(reading: 1000, range: 0, counter: 0, logic: 0)
        var firstGaps: [Range<Int>] = [], secondGaps: [Range<Int>] = []
        let first = try decoder.decode(next.prefix(6), gaps: &firstGaps), second = try decoder.decode(next.suffix(2), gaps: &secondGaps)
        #expect(first.count == 59 && second.count == 4)
        #expect(firstGaps == [0..<58] && secondGaps == [0..<3], "each read's gaps index its own samples")
        #expect(decoder.lostSamples == 61)
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
