// Read by the stateful fuzz target (hci-fuzz `host`) to check that an ended link keeps no waiter.

extension LEConnection {
    /// Callers still waiting on this link: for its end, a parameter update, an indication's
    /// confirmation, a pairing, encryption, a security change or an answer to a channel's signaling request.
    package var pendingWaits: Int {
        endWaiters.count + (pendingParameterUpdate == nil ? 0 : 1) + parameterUpdateWaiters.count + confirmationWaiters.count
            + pairingWaiters.count + (encryptionWaiter == nil ? 0 : 1) + securityWatchers.count + channelTable.pending.count
    }

    /// What `pendingWaits` counts, by kind, for a failed invariant's message ("pairing 1, security watchers 1").
    package var pendingWaitsSummary: String {
        let kinds: [(String, Int)] = [
            ("end", endWaiters.count), ("parameter update", (pendingParameterUpdate == nil ? 0 : 1) + parameterUpdateWaiters.count),
            ("confirmation", confirmationWaiters.count), ("pairing", pairingWaiters.count),
            ("encryption", encryptionWaiter == nil ? 0 : 1), ("security watchers", securityWatchers.count),
            ("channel requests", channelTable.pending.count),
        ]
        let held = kinds.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
        return held.isEmpty ? "none" : held.joined(separator: ", ")
    }
}
