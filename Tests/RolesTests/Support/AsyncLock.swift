/// A FIFO async mutex for tests that share one external peer.
actor AsyncLock {
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if locked {
            await withCheckedContinuation { waiters.append($0) }
        }
        locked = true
    }

    func release() {
        if waiters.isEmpty { locked = false } else { waiters.removeFirst().resume() }
    }
}
