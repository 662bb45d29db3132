// Read by the stateful fuzz target (hci-fuzz `host`) to check that an ended link keeps no waiter.

extension LEConnection {
    /// Callers still waiting on this link: for its end, a parameter update, an indication's
    /// confirmation, a pairing, encryption or a security change, plus the GATT client's requests.
    package var pendingWaits: Int {
        endWaiters.count + (pendingParameterUpdate == nil ? 0 : 1) + parameterUpdateWaiters.count + confirmationWaiters.count
            + pairingWaiters.count + (encryptionWaiter == nil ? 0 : 1) + securityWatchers.count
    }
}
