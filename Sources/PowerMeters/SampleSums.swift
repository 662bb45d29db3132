/// A sample stream's running sums in bounded memory, for the figures of any window of it: the sum of every
/// sample before each of the last `fineCapacity` samples (exact edges for recent windows), and before every
/// `blockSamples`-th sample for the last `coarseCapacity` blocks (older edges placed inside their block as if
/// its current were even). A long run keeps at most `fineCapacity + coarseCapacity` sums.
package struct SampleSums: Sendable {
    package let blockSamples: Int
    package let fineCapacity: Int
    package let coarseCapacity: Int
    /// The sum of samples [0, i) for the last `fineCapacity` + 1 values of i, in a ring indexed by i.
    private var fine: [Double] = [0]
    /// The sum of samples [0, b × blockSamples) for the last `coarseCapacity` values of b, indexed by b.
    private var coarse: [Double] = [0]
    private var sum = 0.0
    /// The samples added.
    package private(set) var count = 0

    /// 2¹⁹ exact sums (5.2 s at 100 kS/s) and 2²¹ sums of 1 ms blocks (35 min): 20 MB at most.
    package init(blockSamples: Int = 100, fineCapacity: Int = 1 << 19, coarseCapacity: Int = 1 << 21) {
        self.blockSamples = max(1, blockSamples)
        self.fineCapacity = max(1, fineCapacity)
        self.coarseCapacity = max(2, coarseCapacity)
    }

    package mutating func add(_ value: Double) {
        sum += value
        count += 1
        Self.store(sum, at: count, in: &fine, capacity: fineCapacity + 1)
        if count % blockSamples == 0 { Self.store(sum, at: count / blockSamples, in: &coarse, capacity: coarseCapacity) }
    }

    /// Adds each sample's current in order, as `add` does one by one: a PPK2 sends 100,000 a second, so the exact
    /// sums are written through one buffer pointer once their ring is full.
    package mutating func add(_ samples: [PPK2Sample]) {
        samples.withUnsafeBufferPointer { samples in
            var next = 0
            while next < samples.count, fine.count < fineCapacity + 1 {
                add(samples[next].microamperes)
                next += 1
            }
            guard next < samples.count else { return }
            var sum = self.sum, count = self.count
            let slots = fineCapacity + 1, block = blockSamples
            var blockSums: [(index: Int, sum: Double)] = []
            fine.withUnsafeMutableBufferPointer { ring in
                for index in next..<samples.count {
                    sum += samples[index].microamperes
                    count += 1
                    ring[count % slots] = sum
                    if count % block == 0 { blockSums.append((count / block, sum)) }
                }
            }
            self.sum = sum
            self.count = count
            for (index, sum) in blockSums { Self.store(sum, at: index, in: &coarse, capacity: coarseCapacity) }
        }
    }

    private static func store(_ value: Double, at index: Int, in ring: inout [Double], capacity: Int) {
        if ring.count < capacity { ring.append(value) } else { ring[index % capacity] = value }
    }

    /// The sum of samples [0, `index`); nil when `index` is past the samples added or older than what is kept.
    package func sum(before index: Int) -> Double? {
        guard index >= 0, index <= count else { return nil }
        if count - index <= fineCapacity, index >= count + 1 - fine.count { return fine[index % (fineCapacity + 1)] }
        let block = index / blockSamples
        let blocksKept = coarse.count
        let newest = count / blockSamples
        guard block > newest - blocksKept else { return nil }
        if index % blockSamples == 0 { return coarse[block % coarseCapacity] }
        guard block + 1 <= newest else { return nil }
        let low = coarse[block % coarseCapacity], high = coarse[(block + 1) % coarseCapacity]
        return low + (high - low) * Double(index % blockSamples) / Double(blockSamples)
    }

    /// The sum of samples [`first`, `last`); nil when either edge is not kept.
    package func sum(from first: Int, to last: Int) -> Double? {
        guard first <= last, let low = sum(before: first), let high = sum(before: last) else { return nil }
        return high - low
    }

    /// The oldest sample index whose sum before it is still kept (exactly or within its block).
    package var oldestKept: Int {
        let newest = count / blockSamples
        let oldestBlock = max(0, newest - coarse.count + 1)
        return min(max(0, count + 1 - fine.count), oldestBlock * blockSamples)
    }
}
