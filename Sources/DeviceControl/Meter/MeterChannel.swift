import PowerMeters

/// The byte stream to a power meter: its serial port, or a test's script. `nextRead` waits for the next octets
/// and honours cancellation (the meter's deadlines cancel it); it throws when the stream has ended.
package protocol MeterChannel: Sendable {
    /// Where the meter is, for messages: the port's path.
    var name: String { get }
    func send(_ octets: [UInt8]) async throws(PowerMeterError)
    /// The next octets the meter sent (at least one), and whether the read took all the port held when it ended.
    func nextRead() async throws -> MeterRead
    /// Drops what the port holds and what follows until it has been quiet a moment: a meter's samples still on
    /// their way after it was told to stop (a run that was killed left it streaming).
    func discardPending() async
    func close()
}

/// One read of a meter's port.
package struct MeterRead: Equatable, Sendable {
    /// What the meter sent (at least one octet).
    package var octets: [UInt8]
    /// Whether nothing more waited in the port when the read ended: a read that stopped with octets still waiting
    /// (its buffer full, or its time up) says how far the reader has come, not how far the meter has.
    package var drained: Bool

    package init(octets: [UInt8], drained: Bool) {
        self.octets = octets
        self.drained = drained
    }
}

extension MeterChannel {
    /// The next octets the meter sent (at least one).
    package func receive() async throws -> [UInt8] { try await nextRead().octets }
}
