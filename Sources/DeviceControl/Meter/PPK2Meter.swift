import Foundation
import PowerMeters
import Support
import Synchronization

/// A Nordic Power Profiler Kit II on its serial port, as the nRF Connect Power Profiler drives it: its metadata
/// (and so its calibration) first, then the mode, the regulator's voltage and, in source mode, the device's
/// supply; then samples, 100,000 a second, for as many seconds as asked (counted in samples, the meter's own
/// clock). Every wait has a deadline on `clock`: the metadata's, and the stream's — a meter that stops
/// streaming ends the recording with what it last sent.
package final class PPK2Meter<C: Clock<Duration>>: Sendable {
    package let channel: any MeterChannel
    package let clock: C
    /// How long the metadata may take (a PPK2 answers within a few milliseconds).
    package let metadataDeadline: Duration
    /// How long the stream may pause (a PPK2 sends every millisecond or so).
    package let streamDeadline: Duration

    package init(channel: any MeterChannel, clock: C, metadataDeadline: Duration = .seconds(2), streamDeadline: Duration = .seconds(1)) {
        self.channel = channel
        self.clock = clock
        self.metadataDeadline = metadataDeadline
        self.streamDeadline = streamDeadline
    }

    /// Asks for the metadata and reads it up to its END line. A PPK2 left streaming (by a run that was killed, or
    /// another program) is told to stop first and what it sent is dropped; samples that still come before the
    /// metadata (binary words) are left out of it: the metadata is the text after the last octet that is no text.
    package func metadata() async throws -> PPK2Metadata {
        try await channel.send(PPK2Command.stopSampling.octets)
        await channel.discardPending()
        try await channel.send(PPK2Command.metadata.octets)
        let received = LastOctets()
        let name = channel.name, limit = metadataDeadline
        let text = try await withDeadline(limit, clock: clock, timeout: {
            PowerMeterError(.timeout, "PPK2 at \(name): no metadata (GET_META_DATA) within \(limit); it sent \(Self.quote(received.value.withLock { $0 }))")
        }) { [channel] () async throws -> String in
            var octets: [UInt8] = []
            while true {
                let read = try await channel.receive()
                octets = Array(Self.textAfterSamples(octets + read))
                received.value.withLock { $0 = octets.isEmpty ? read : octets }
                let text = String(decoding: octets, as: UTF8.self)
                if PPK2Metadata.isComplete(text) { return text }
                if octets.count > PPK2Metadata.maximumLength {
                    throw PowerMeterError(.protocolViolation, "PPK2 at \(name): \(octets.count) octets of metadata and no END line: \(Self.quote(octets))")
                }
            }
        }
        return try PPK2Metadata(text)
    }

    /// Sets the mode and the regulator (in source mode the device's supply, in ampere mode the voltage the
    /// calibration assumes), and in source mode switches the device's supply.
    package func configure(mode: PPK2Mode, millivolts: Int, devicePower: Bool?) async throws(PowerMeterError) {
        try await channel.send(PPK2Command.mode(mode).octets)
        try await channel.send(PPK2Command.regulator(millivolts: millivolts).octets)
        if let devicePower { try await channel.send(PPK2Command.devicePower(on: devicePower).octets) }
    }

    /// Records `samples` samples (`seconds × 100,000`) through `decoder` into `recording`, then stops the stream;
    /// the recording says how many the PPK2's counter said were lost on the way.
    package func record(samples wanted: Int, decoder: PPK2Decoder, into recording: CurrentRecording) async throws -> CurrentRecording {
        var decoder = decoder
        var recording = recording
        try await channel.send(PPK2Command.startSampling.octets)
        let last = LastOctets()
        let name = channel.name, limit = streamDeadline
        do {
            while recording.samples < wanted {
                let count = recording.samples
                let octets = try await withDeadline(limit, clock: clock, timeout: {
                    PowerMeterError(.timeout, "PPK2 at \(name) stopped streaming: no sample within \(limit) after \(count) samples; it last sent \(Self.quote(last.value.withLock { $0 }))")
                }) { [channel] in try await channel.receive() }
                last.value.withLock { $0 = Array(octets.suffix(16)) }
                let samples = try decoder.decode(octets)
                recording.add(samples.prefix(wanted - recording.samples))
            }
        } catch {
            try? await channel.send(PPK2Command.stopSampling.octets)
            throw error
        }
        try await channel.send(PPK2Command.stopSampling.octets)
        recording.lostSamples = decoder.lostSamples
        return recording
    }

    /// The octets after the last one that cannot be metadata text (printable ASCII, tab, CR, LF): sample words
    /// still on their way before the metadata end with their logic-inputs octet, which is no text on an emulated
    /// PPK2 and none while the logic inputs are low.
    static func textAfterSamples(_ octets: [UInt8]) -> ArraySlice<UInt8> {
        let last = octets.lastIndex { !($0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0)) }
        return octets[(last.map { $0 + 1 } ?? 0)...]
    }

    /// Octets for a message: text where they are text, else hexadecimal; "nothing" for none.
    static func quote(_ octets: [UInt8]) -> String {
        guard !octets.isEmpty else { return "nothing" }
        let tail = octets.suffix(48)
        if tail.allSatisfy({ $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) }) {
            return "'" + String(decoding: tail, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "") + "'"
        }
        return tail.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
    }
}

/// What a meter sent last, kept for the message of a deadline that passes while it is awaited.
private final class LastOctets: Sendable {
    let value = Mutex<[UInt8]>([])
}
