@testable import PowerMeters
import Testing

/// The running sums a long PPK2 stream keeps: exact for recent windows, within a block for older ones, bounded,
/// checked against sums taken directly over the samples.
@Suite("Sample sums")
struct SampleSumsTests {
    /// 2,000 samples of a sawtooth with a step, so no two blocks average alike.
    static let samples: [Double] = (0..<2000).map { Double($0 % 37) * 1.5 + ($0 >= 1000 ? 400 : 2) }

    static func sums() -> SampleSums {
        var sums = SampleSums(blockSamples: 10, fineCapacity: 500, coarseCapacity: 100)
        for sample in samples { sums.add(sample) }
        return sums
    }

    static func direct(_ range: Range<Int>) -> Double { samples[range].reduce(0, +) }

    @Test("Samples added a read at a time, past the exact ring's filling and wrapping, keep the sums of one at a time")
    func addedByRead() {
        let single = Self.sums()
        var byRead = SampleSums(blockSamples: 10, fineCapacity: 500, coarseCapacity: 100)
        var next = 0
        for size in [7, 1, 493, 0, 600, 3, 896] where next < Self.samples.count {
            let end = min(Self.samples.count, next + size)
            byRead.add(Self.samples[next..<end].map { PPK2Sample(microamperes: $0, range: 0, logic: 0) })
            next = end
        }
        #expect(next == 2000 && byRead.count == 2000 && byRead.oldestKept == single.oldestKept)
        let differing = (0...2000).filter { byRead.sum(before: $0) != single.sum(before: $0) }
        #expect(differing.isEmpty, "sums differ before samples \(differing.prefix(5))")
        #expect(byRead.sum(from: 1503, to: 1997).map { abs($0 - Self.direct(1503..<1997)) < 1e-6 } == true)
    }

    @Test("A window within the last fineCapacity samples is summed exactly")
    func recentExact() {
        let sums = Self.sums()
        #expect(sums.count == 2000)
        let sum = sums.sum(from: 1503, to: 1997)
        #expect(sum.map { abs($0 - Self.direct(1503..<1997)) < 1e-6 } == true, "\(String(describing: sum))")
        #expect(sums.sum(from: 1500, to: 2000).map { abs($0 - Self.direct(1500..<2000)) < 1e-6 } == true)
    }

    @Test("An older edge on a block boundary is exact; inside a block it is placed as if the block's current were even")
    func olderEdges() {
        let sums = Self.sums()
        #expect(sums.sum(from: 1200, to: 1990).map { abs($0 - Self.direct(1200..<1990)) < 1e-6 } == true)
        // Sample 1203 is 3/10 into block 120: the block's sum counts for 3/10 of it.
        let block = Self.direct(1200..<1210)
        let expected = Self.direct(1200..<1990) - block * 0.3
        #expect(sums.sum(from: 1203, to: 1990).map { abs($0 - expected) < 1e-6 } == true)
    }

    @Test("Memory is bounded: edges older than the last coarseCapacity blocks, or not yet streamed, are not kept")
    func bounded() {
        let sums = Self.sums()
        // 100 blocks of 10 kept, the newest being block 200: blocks 101…200, so sample 1010 onwards.
        #expect(sums.oldestKept == 1010)
        #expect(sums.sum(from: 1009, to: 1500) == nil)
        #expect(sums.sum(from: 1010, to: 1500) != nil)
        #expect(sums.sum(from: 1500, to: 2001) == nil)
        #expect(sums.sum(from: 1600, to: 1500) == nil)
    }
}
