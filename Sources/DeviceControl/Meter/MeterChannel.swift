import PowerMeters

/// The byte stream to a power meter: its serial port, or a test's script. `receive` waits for the next octets
/// and honours cancellation (the meter's deadlines cancel it); it throws when the stream has ended.
package protocol MeterChannel: Sendable {
    /// Where the meter is, for messages: the port's path.
    var name: String { get }
    func send(_ octets: [UInt8]) async throws(PowerMeterError)
    /// The next octets the meter sent (at least one).
    func receive() async throws -> [UInt8]
    func close()
}
