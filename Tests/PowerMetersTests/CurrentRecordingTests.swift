@testable import PowerMeters
import Testing

/// A recording's figures, whole and per window, the same whether its samples come one at a time or a read at a
/// time (reads that straddle windows), and equal to sums taken directly over the samples.
@Suite("Current recording")
struct CurrentRecordingTests {
    /// 1,050 samples, no two windows alike, the logic inputs D1 and D6 high in two of them.
    static let samples: [PPK2Sample] = (0..<1050).map {
        PPK2Sample(microamperes: Double($0 % 41) * 2.5 + ($0 >= 600 ? 900 : 1), range: $0 % 5, logic: $0 == 17 ? 0x02 : $0 == 933 ? 0x40 : 0)
    }

    static func recording() -> CurrentRecording { CurrentRecording(samplesPerSecond: 100_000, supplyVolts: 3, windowSamples: 100) }

    @Test("Reads that straddle windows give each window its own samples")
    func readsStraddlingWindows() {
        var single = Self.recording(), byRead = Self.recording()
        for sample in Self.samples { single.add(sample.microamperes, logic: sample.logic) }
        var next = 0
        for size in [1, 98, 3, 250, 0, 400, 298] {
            byRead.add(Self.samples[next..<next + size])
            next += size
        }
        #expect(next == Self.samples.count)
        #expect(byRead == single)
        #expect(byRead.windows.count == 11 && byRead.windows.last?.samples == 50 && byRead.logicSeen == 0x42)
        let direct = stride(from: 0, to: 1050, by: 100).map { start in
            Self.samples[start..<min(1050, start + 100)].reduce(0) { $0 + $1.microamperes }
        }
        let sums = byRead.windows.map { $0.averageMicroamperes * Double($0.samples) }
        #expect(zip(sums, direct).allSatisfy { abs($0 - $1) < 1e-6 }, "\(sums) vs \(direct)")
    }
}
