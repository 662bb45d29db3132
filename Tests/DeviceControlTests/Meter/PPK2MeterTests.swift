import DeviceControl
import EventLoops
import PowerMeters
import Testing
import TestSupport

/// The PPK2 session on a scripted port and a stepped clock: what it sends, in the order the nRF Connect Power
/// Profiler sends it, and the exact deadlines of the metadata and of a stream that stops.
@Suite("PPK2 meter")
struct PPK2MeterTests {
    /// A sample word: reading in bits 0–13, range in 14–16, the sample counter (modulo 64) in 18–23 (the PPK2's layout).
    static func word(reading: UInt32, range: UInt32, counter: Int = 0) -> [UInt8] {
        let value = reading | range << 14 | UInt32(counter & 0x3F) << 18
        return [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    static let recording = CurrentRecording(samplesPerSecond: 100_000, supplyVolts: 3, windowSamples: 100_000)

    @Test("The metadata is asked for and read up to END, across reads")
    func metadata() async throws {
        try await withSteppedTime { time in
            let channel = ScriptedMeterChannel()
            let meter = PPK2Meter(channel: channel, clock: time.clock)
            channel.meterSends(Array("Calibrated: 0\nR0: 1010.5\nHW: 91".utf8))
            channel.meterSends(Array("73\nEND\n".utf8))
            let metadata = try await meter.metadata()
            // AVERAGE_STOP first: a PPK2 left streaming stops before it is asked.
            #expect(channel.sent == [[0x07], [0x19]])
            #expect(metadata.calibration.ranges[0].r == 1010.5 && metadata.hardware == "9173")
        }
    }

    /// Samples a PPK2 left streaming sent before it took AVERAGE_STOP, still on their way when the metadata comes:
    /// words whose last octet (the logic inputs) is no text, one of them holding a form feed, which reads as a
    /// line break.
    @Test("Samples that come before the metadata are left out of it")
    func samplesBeforeMetadata() async throws {
        try await withSteppedTime { time in
            let channel = ScriptedMeterChannel()
            let meter = PPK2Meter(channel: channel, clock: time.clock)
            let samples = (0..<8).flatMap { Self.word(reading: 0x0C41, range: 1, counter: $0) }
            #expect(samples.contains(0x0C))
            channel.meterSends(samples + Array("Calibrated: 0\nR0: 1010.5\n".utf8))
            channel.meterSends(Array("HW: 9173\nEND\n".utf8))
            let metadata = try await meter.metadata()
            #expect(metadata.calibration.ranges[0].r == 1010.5 && metadata.hardware == "9173" && metadata.calibrated == "0")
            #expect(metadata.other.isEmpty, "no key made of samples: \(metadata.other)")
        }
    }

    @Test("No END within 2 s: a timeout at exactly 2 s saying what the meter sent")
    func metadataDeadline() async throws {
        try await withSteppedTime { time in
            let channel = ScriptedMeterChannel()
            let meter = PPK2Meter(channel: channel, clock: time.clock)
            channel.meterSends(Array("R0: 1000\n".utf8))
            let due = time.now + .seconds(2)
            let reading = Task { try await meter.metadata() }
            #expect(await time.nextDeadline() == due)
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due, "one nanosecond before its deadline it still waits")
            await time.advance(to: due)
            let error = await #expect(throws: PowerMeterError.self) { try await reading.value }
            #expect(error == PowerMeterError(.timeout, "PPK2 at /dev/ttyACM9: no metadata (GET_META_DATA) within 2.0 seconds; it sent 'R0: 1000\\n'"))
        }
    }

    @Test("A recording starts the stream, takes exactly the samples asked for and stops it")
    func records() async throws {
        try await withSteppedTime { time in
            let channel = ScriptedMeterChannel()
            let meter = PPK2Meter(channel: channel, clock: time.clock)
            try await meter.configure(mode: .source, millivolts: 3300, devicePower: true)
            channel.meterSends(Self.word(reading: 100, range: 0) + Self.word(reading: 200, range: 0, counter: 1).prefix(3))
            channel.meterSends(Array(Self.word(reading: 200, range: 0, counter: 1).suffix(1)) + Self.word(reading: 300, range: 0, counter: 2)
                + Self.word(reading: 400, range: 0, counter: 3))
            let recording = try await meter.record(samples: 3, decoder: PPK2Decoder(calibration: .defaults, supplyMillivolts: 3300),
                                                   into: CurrentRecording(samplesPerSecond: 100_000, supplyVolts: 3.3, windowSamples: 1))
            #expect(recording.samples == 3)
            let windows = recording.windows.map(\.averageMicroamperes)
            #expect(windows.count == 3 && windows[0] < windows[1] && windows[1] < windows[2], "\(windows)")
            // Source mode, 3300 mV (0x0CE4), the device's supply on, start, stop: as ppk2-api sends them.
            #expect(channel.sent == [[0x11, 2], [0x0D, 0x0C, 0xE4], [0x0C, 1], [0x06], [0x07]])
        }
    }

    @Test("A stream that stops: a timeout at exactly 1 s after the last octets, naming the count and what came last; the stream is stopped")
    func streamDeadline() async throws {
        try await withSteppedTime { time in
            let channel = ScriptedMeterChannel()
            let meter = PPK2Meter(channel: channel, clock: time.clock)
            let recording = Task { try await meter.record(samples: 10, decoder: PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000), into: Self.recording) }
            let due = time.now + .seconds(1)
            #expect(await time.nextDeadline() == due)
            channel.meterSends(Self.word(reading: 1, range: 0) + Self.word(reading: 2, range: 1, counter: 1))
            // The first wait ended with the octets (its deadline gone); the second is armed a second from now,
            // the clock not having moved.
            await channel.untilReceiving(2)
            #expect(await time.nextDeadline() == due)
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due, "one nanosecond before its deadline it still waits")
            await time.advance(to: due)
            let error = await #expect(throws: PowerMeterError.self) { try await recording.value }
            #expect(error == PowerMeterError(.timeout, "PPK2 at /dev/ttyACM9 stopped streaming: no sample within 1.0 seconds after 2 samples; it last sent 01 00 00 00 02 40 04 00"))
            #expect(channel.sent.last == [0x07])
        }
    }

    @Test("A range error from the meter ends the recording with the word, and the stream is stopped")
    func rangeError() async throws {
        try await withSteppedTime { time in
            let channel = ScriptedMeterChannel()
            let meter = PPK2Meter(channel: channel, clock: time.clock)
            channel.meterSends(Self.word(reading: 5, range: 6))
            let error = await #expect(throws: PowerMeterError.self) {
                try await meter.record(samples: 10, decoder: PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000), into: Self.recording)
            }
            #expect(error?.kind == .protocolViolation)
            #expect(error?.message.hasPrefix("PPK2 range error: sample 0x18005 names range 6") == true)
            #expect(channel.sent.last == [0x07])
        }
    }
}
