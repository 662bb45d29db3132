import PowerMeters

/// A PPK2 told to stop streaming (AVERAGE_STOP) on its own port, as a run leaves it: the bench streams each PPK2
/// for as long as its test process lives and never ends the stream itself, so `hil run` stops it once the
/// process has ended, however it ended. The device's supply (source mode) is left as it is, as a run leaves its
/// other switches.
package enum PPK2Stop {
    /// Opens `port` (a path or `usb:VID:PID[/SERIAL]`, `MeterPort`), sends AVERAGE_STOP and closes it. Throws
    /// `PowerMeterError` when the port cannot be found, opened or written within the channel's 2 s.
    package static func stopStreaming(port: String) async throws(PowerMeterError) {
        let channel = try SerialMeterChannel(path: try MeterPort.resolve(port))
        defer { channel.close() }
        try await channel.send(PPK2Command.stopSampling.octets)
    }
}
