// Read by the fuzz targets (hci-fuzz `gatt-client`, `host`) to check that a closed bearer keeps nothing.

extension GATTClient {
    /// Requests queued or awaiting their response.
    package var pendingTransactions: Int { queue.count + (outstanding == nil ? 0 : 1) }
}
