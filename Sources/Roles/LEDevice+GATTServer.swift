import GATT
/// A value a peer wrote into this device's GATT database (a characteristic value, or a client
/// characteristic configuration, reported against the value handle it configures).
public struct AttributeWrite: Sendable, Hashable {
    public var connection: UInt16
    public var handle: UInt16
    public var value: [UInt8]
    /// A client characteristic configuration write (reported against the value handle it configures): a server
    /// whose characteristic is both written and notified (MCUmgr SMP's) tells it from a value written.
    public var isClientConfiguration = false
}

extension LEDevice {
    /// Writes peers make to the database, as they happen.
    public func attributeWrites() -> AsyncStream<AttributeWrite> {
        writeObservers.stream(removingOn: host.loop) { [weak self] id in await self?.removeWriteObserver(id) }
    }

    func removeWriteObserver(_ id: UInt64) { writeObservers.remove(id) }

    nonisolated func valueWritten(connection: UInt16, attribute: UInt16, value: [UInt8], isClientConfiguration: Bool = false) {
        let write = AttributeWrite(connection: connection, handle: attribute, value: value, isClientConfiguration: isClientConfiguration)
        Task(executorPreference: host.loop) { await self.publishWrite(write) }
    }

    func publishWrite(_ write: AttributeWrite) {
        writeObservers.yield(write)
    }

    /// Updates a characteristic value in the database and notifies every subscribed peer; returns how
    /// many were notified.
    @discardableResult
    public func updateValue(_ value: [UInt8], at valueHandle: UInt16) async throws(RoleError) -> Int {
        database?.setValue(value, at: valueHandle)
        var notified = 0
        for connection in connections.values where try await connection.notify(valueHandle: valueHandle, value: value) {
            notified += 1
        }
        return notified
    }

    /// Serves `newDatabase` to peers from now on, on the links already up and on those to come (the database
    /// changed, Core v5.4 Vol 3 Part G §2.5.2). Each link keeps its peer's CCCD values where they still apply.
    /// Tell the peers with a Service Changed indication (`LEConnection.indicate`) of the range that changed.
    public func serve(_ newDatabase: GATTDatabase) {
        setServedDatabase(newDatabase)
        for connection in connections.values { connection.assumeIsolated { $0.serve(newDatabase) } }
    }
}
