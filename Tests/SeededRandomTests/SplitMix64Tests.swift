import SeededRandom
import Testing

/// The seeded generator the fuzz and random-input tests replay from: its sequence must never change.
@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("Seed 0 gives the reference sequence of SplitMix64")
    func referenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect([generator.next(), generator.next(), generator.next()]
            == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test("The same seed gives the same sequence")
    func sameSeedSameSequence() {
        var first = SplitMix64(seed: 0xA77)
        var second = SplitMix64(seed: 0xA77)
        #expect((0..<16).map { _ in first.next() } == (0..<16).map { _ in second.next() })
    }
}
