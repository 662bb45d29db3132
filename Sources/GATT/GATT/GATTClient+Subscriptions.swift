// Subscribing by writing the CCCD: Core v5.4 Vol 3 Part G §4.10–§4.12.3.

extension GATTClient {
    /// Enables notifications (or, when the characteristic only indicates or
    /// `indications` is true, indications) by writing its Client Characteristic
    /// Configuration descriptor (§4.12.3), and returns the stream of its values.
    /// The stream is registered before the write, so nothing sent right after is lost.
    public func subscribe(to characteristic: GATTServiceTree.Characteristic,
                          indications: Bool? = nil) async throws(ATTError) -> AsyncStream<GATTNotification> {
        guard let cccd = characteristic.clientConfigurationHandle else {
            throw .invalidArgument("characteristic \(characteristic.uuid) at \(Self.hex(characteristic.valueHandle)) "
                + "has no Client Characteristic Configuration descriptor")
        }
        let useIndications = indications ?? !characteristic.properties.contains(.notify)
        let configuration: GATTClientConfiguration = useIndications ? .indication : .notification
        return try await subscribe(valueHandle: characteristic.valueHandle, clientConfigurationHandle: cccd,
                                   configuration: configuration)
    }

    /// Writes `configuration` to the CCCD at `clientConfigurationHandle` and returns
    /// the stream of values for `valueHandle`.
    public func subscribe(valueHandle: UInt16, clientConfigurationHandle: UInt16,
                          configuration: GATTClientConfiguration = .notification) async throws(ATTError) -> AsyncStream<GATTNotification> {
        let stream = notifications(handle: valueHandle)
        try await write(handle: clientConfigurationHandle, value: configuration.bytes)
        return stream
    }

    /// Disables notifications and indications (writes 0x0000 to the CCCD).
    /// Streams stay open; end them by cancelling their consumers.
    public func unsubscribe(from characteristic: GATTServiceTree.Characteristic) async throws(ATTError) {
        guard let cccd = characteristic.clientConfigurationHandle else {
            throw .invalidArgument("characteristic \(characteristic.uuid) at \(Self.hex(characteristic.valueHandle)) "
                + "has no Client Characteristic Configuration descriptor")
        }
        try await write(handle: cccd, value: GATTClientConfiguration().bytes)
    }
}
