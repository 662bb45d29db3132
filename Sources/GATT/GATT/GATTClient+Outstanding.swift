// Read by the fuzz targets (hci-fuzz `gatt-client`, `host`) to check that a closed bearer keeps nothing, and by
// the tests to await a request's arrival in the queue.

extension GATTClient {
    /// Requests queued or awaiting their response.
    package var pendingTransactions: Int { queue.count + (outstanding == nil ? 0 : 1) }

    /// Returns once at least `count` requests wait in the queue behind the outstanding one, or the bearer
    /// has closed (at once if either is so already): a test awaits it to act on a request it knows is queued.
    package func queued(atLeast count: Int) async {
        guard queue.count < count, closedReason == nil else { return }
        await withCheckedContinuation { queueWatchers.append((count, $0)) }
    }

    /// Resumes the `queued(atLeast:)` callers whose count the queue has reached (all of them once closed).
    func queueChanged() {
        guard !queueWatchers.isEmpty else { return }
        let closed = closedReason != nil
        let ready = queueWatchers.filter { closed || $0.count <= queue.count }
        queueWatchers.removeAll { closed || $0.count <= queue.count }
        for watcher in ready { watcher.continuation.resume() }
    }
}
