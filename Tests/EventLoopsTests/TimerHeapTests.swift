@testable import EventLoops
import SeededRandom
import Testing

/// The timer heap against a sorted array: random inserts, cancellations and pops give the same timers in
/// the same order (deadline, then scheduling order).
@Suite struct TimerHeapTests {
    @Test(arguments: [1, 2, 3, 42])
    func matchesASortedReference(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var heap = TimerHeap()
        var reference: [(id: UInt64, deadline: ContinuousClock.Instant)] = []
        // Any instant will do (the heap compares instants and reads no clock): a stepped clock's, which stands still.
        let origin = VirtualTime.stepped().now
        var nextID: UInt64 = 1
        var popped: [UInt64] = []
        var expected: [UInt64] = []
        for step in 0..<5_000 {
            switch random.next() % 10 {
            case 0...5:
                // Few distinct deadlines, so ties are common.
                let deadline = origin + .milliseconds(Int64(random.next() % 50))
                heap.insert(TimerHeap.Timer(id: nextID, deadline: deadline, action: {}))
                reference.append((nextID, deadline))
                nextID += 1
            case 6...7:
                guard !reference.isEmpty else { continue }
                let victim = reference[Int(random.next() % UInt64(reference.count))].id
                let removed = heap.remove(id: victim)
                let removedAgain = heap.remove(id: victim)
                #expect(removed)
                #expect(!removedAgain, "removed twice at step \(step)")
                reference.removeAll { $0.id == victim }
            default:
                let now = origin + .milliseconds(Int64(random.next() % 50))
                popped += heap.popDue(at: now).map(\.id)
                let due = reference.filter { $0.deadline <= now }
                    .sorted { $0.deadline < $1.deadline || ($0.deadline == $1.deadline && $0.id < $1.id) }
                expected += due.map(\.id)
                reference.removeAll { $0.deadline <= now }
            }
            #expect(heap.count == reference.count)
        }
        #expect(popped == expected)
        #expect(heap.nextDeadline == reference.map(\.deadline).min())
    }
}
