/// The event loop's timers: a binary min-heap ordered by deadline (then by the order they were scheduled),
/// with each timer's position kept so that cancelling one is O(log n) like scheduling it.
struct TimerHeap {
    struct Timer {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let action: @Sendable () -> Void

        /// Earlier deadline first; at the same deadline, the one scheduled first (IDs only grow).
        func precedes(_ other: Timer) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && id < other.id)
        }
    }

    private var heap: [Timer] = []
    private var positions: [UInt64: Int] = [:]

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// The earliest deadline, if any timer is pending.
    var nextDeadline: ContinuousClock.Instant? { heap.first?.deadline }

    mutating func insert(_ timer: Timer) {
        heap.append(timer)
        positions[timer.id] = heap.count - 1
        siftUp(heap.count - 1)
    }

    /// Removes the timer with this ID; false when there is none (it fired or was cancelled already).
    @discardableResult
    mutating func remove(id: UInt64) -> Bool {
        guard let index = positions[id] else { return false }
        removeAt(index)
        return true
    }

    /// Removes and returns every timer whose deadline is at or before `now`, earliest first.
    mutating func popDue(at now: ContinuousClock.Instant) -> [Timer] {
        var due: [Timer] = []
        while let first = heap.first, first.deadline <= now {
            due.append(first)
            removeAt(0)
        }
        return due
    }

    private mutating func removeAt(_ index: Int) {
        let removed = heap[index]
        positions[removed.id] = nil
        let last = heap.count - 1
        if index != last {
            heap[index] = heap[last]
            positions[heap[index].id] = index
        }
        heap.removeLast()
        guard index < heap.count else { return }
        siftDown(siftUp(index))
    }

    @discardableResult
    private mutating func siftUp(_ start: Int) -> Int {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            swapAt(child, parent)
            child = parent
        }
        return child
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            var first = left
            if right < heap.count, heap[right].precedes(heap[left]) { first = right }
            guard heap[first].precedes(heap[parent]) else { return }
            swapAt(first, parent)
            parent = first
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        positions[heap[a].id] = a
        positions[heap[b].id] = b
    }
}
