import DeviceControl
import EventLoops
import PowerMeters
import Testing
import TestSupport

/// A PPK2 streaming through a run on a scripted port and a stepped clock: samples placed on the clock from the
/// stream's anchor, any window's figures once its samples came, and the exact deadlines of a window whose samples
/// do not come, a stream that stops and one that drifts.
@Suite("PPK2 stream")
struct PPK2StreamTests {
    /// Sample words of `readings`, their counters numbering them from `first` (the stream's samples before them).
    static func words(_ readings: [UInt32], range: UInt32 = 1, from first: Int = 0) -> [UInt8] {
        readings.enumerated().flatMap { PPK2MeterTests.word(reading: $1, range: range, counter: first + $0) }
    }

    static func decoder() -> PPK2Decoder { PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000) }

    /// Whether `due` becomes the clock's earliest deadline: the stream's own deadline is armed first, the window's
    /// by a task of its own, a few turns later.
    static func armed(_ due: ContinuousClock.Instant, on time: VirtualTime) async -> Bool {
        for _ in 0..<1000 {
            if await time.nextDeadline() == due { return true }
            await Task.yield()
        }
        return false
    }

    /// 50 samples at one reading, then 50 at another.
    static let hundred: [UInt32] = Array(repeating: 1000, count: 50) + Array(repeating: 3000, count: 50)

    /// A stream started now (`t0`) on a scripted port, before any read.
    static func started(_ time: VirtualTime, streamDeadline: Duration = .seconds(1)) async throws
        -> (channel: ScriptedMeterChannel, t0: ContinuousClock.Instant, stream: PPK2Stream<LoopClock>) {
        let channel = ScriptedMeterChannel()
        let t0 = time.now
        let stream = try await PPK2Stream(meter: PPK2Meter(channel: channel, clock: time.clock, streamDeadline: streamDeadline), decoder: decoder())
        return (channel, t0, stream)
    }

    /// A stream started at `t0` that took, 1 ms later, its first read: `first` (`hundred`: its anchor is t0).
    static func streaming(_ time: VirtualTime, streamDeadline: Duration = .seconds(1), first: [UInt8] = words(hundred)) async throws
        -> (channel: ScriptedMeterChannel, t0: ContinuousClock.Instant, stream: PPK2Stream<LoopClock>) {
        let (channel, t0, stream) = try await started(time, streamDeadline: streamDeadline)
        await time.advance(by: .milliseconds(1))
        channel.meterSends(first)
        await channel.untilReceiving(2)
        return (channel, t0, stream)
    }

    @Test("Samples are placed on the clock from the first read's arrival; a window takes the samples taken within it")
    func window() async throws {
        try await withSteppedTime { time in
            // A millisecond after the start, 100 samples: the first was taken at t0.
            let (channel, t0, stream) = try await Self.streaming(time)
            #expect(channel.sent == [[0x06]])
            var reference = Self.decoder()
            let decoded = try reference.decode(Self.words(Self.hundred)).map(\.microamperes)
            // [0.205 ms, 0.7 ms): samples 21 (the first at or after its start) to 69.
            let figures = try await stream.figures(from: t0.advanced(by: .microseconds(205)), to: t0.advanced(by: .microseconds(700)))
            let expected = decoded[21..<70].reduce(0, +) / 49
            #expect(figures.samples == 49)
            #expect(abs(figures.averageMicroamperes - expected) < 1e-9 * expected, "\(figures.averageMicroamperes) vs \(expected)")
            #expect(abs(figures.chargeMicrocoulombs - decoded[21..<70].reduce(0, +) / 100_000) < 1e-12)
            await stream.stop()
            #expect(channel.sent.last == [0x07])
        }
    }

    @Test("A window waits for its samples, at most 2 s after its end: a timeout at exactly that instant saying how far the stream came")
    func windowDeadline() async throws {
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await Self.streaming(time, streamDeadline: .seconds(10))
            let waiting = Task { try await stream.figures(from: t0, to: t0.advanced(by: .milliseconds(2))) }
            #expect(await Self.armed(t0.advanced(by: .milliseconds(2) + .seconds(2)), on: time))
            await time.advance(by: .milliseconds(1))
            channel.meterSends(Self.words(Self.hundred, from: 100))
            #expect(try await waiting.value.samples == 200)

            let end = t0.advanced(by: .milliseconds(3))
            let late = Task { try await stream.figures(from: t0, to: end) }
            let due = end.advanced(by: .seconds(2))
            #expect(await Self.armed(due, on: time))
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due, "one nanosecond before its deadline it still waits")
            await time.advance(to: due)
            let error = await #expect(throws: PowerMeterError.self) { try await late.value }
            #expect(error?.kind == .timeout)
            #expect(error?.message.hasPrefix("PPK2 at /dev/ttyACM9: the samples up to a window's end (sample 300) had not come 2.0 seconds after it; 200 samples came; it last sent b8 4b 10 00 b8 4b 14 00 b8 4b 18 00 b8 4b 1c 00") == true, "\(String(describing: error))")
            await stream.stop()
        }
    }

    @Test("A window whose samples came is answered at once, even asked for more than 2 s after its end (an early span of a long case)")
    func windowLongEnded() async throws {
        try await withSteppedTime { time in
            let (_, t0, stream) = try await Self.streaming(time, streamDeadline: .seconds(10))
            await time.advance(by: .seconds(3))
            var reference = Self.decoder()
            let decoded = try reference.decode(Self.words(Self.hundred)).map(\.microamperes)
            // [0.5 ms, 1 ms): samples 50 to 99, at the second reading; its deadline passed 1 s ago.
            let figures = try await stream.figures(from: t0.advanced(by: .microseconds(500)), to: t0.advanced(by: .milliseconds(1)))
            #expect(figures.samples == 50)
            #expect(abs(figures.averageMicroamperes - decoded[99]) < 1e-9 * decoded[99], "\(figures.averageMicroamperes) vs \(decoded[99])")
            await stream.stop()
        }
    }

    @Test("A stream that stops fails at exactly 1 s after its last octets, and a window asked for then throws what the meter last sent")
    func streamStops() async throws {
        try await withSteppedTime { time in
            let (_, t0, stream) = try await Self.streaming(time, first: Self.words([1000, 1001]))
            let due = t0.advanced(by: .milliseconds(1) + .seconds(1))
            #expect(await time.nextDeadline() == due)
            await time.advance(to: due)
            // The stream's anchor: two samples before the read that came at 1 ms.
            let error = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0.advanced(by: .microseconds(980)), to: t0.advanced(by: .milliseconds(500))) }
            #expect(error == PowerMeterError(.timeout, "PPK2 at /dev/ttyACM9 stopped streaming: no sample within 1.0 seconds after 2 samples; it last sent e8 43 00 00 e9 43 04 00"))
            await stream.stop()
        }
    }

    @Test("A range error fails the stream with the word")
    func rangeError() async throws {
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await Self.started(time)
            channel.meterSends(Self.words([1000]) + Self.words([5], range: 7))
            let error = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0, to: t0.advanced(by: .milliseconds(1))) }
            #expect(error?.kind == .protocolViolation)
            #expect(error?.message.hasPrefix("PPK2 range error: sample 0x1c005 names range 7") == true)
            await stream.stop()
        }
    }

    @Test("Samples that lag the clock by more than 0.5 s, or run ahead of it, fail the stream")
    func drift() async throws {
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await Self.streaming(time)
            // 600 ms later only 100 more samples (1 ms of them): sample 0 at t0 + 599 ms, this read says, where the
            // first read, 600 ms before, bounds it at t0 + 60 µs (the 100 ppm a count may drift): 598.94 ms behind.
            await time.advance(by: .milliseconds(600))
            channel.meterSends(Self.words(Self.hundred, from: 100))
            let error = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0, to: t0.advanced(by: .seconds(1))) }
            #expect(error?.message.hasPrefix("PPK2 at /dev/ttyACM9: its 200 samples lag behind the host clock by 0.59894 seconds more than a drift of 100 ppm allows (at most 0.5 seconds) 0.60094 seconds after the stream started") == true, "\(String(describing: error))")
            await stream.stop()
        }
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await Self.streaming(time)
            channel.meterSends(Self.words(Array(repeating: 1000, count: 60_000), from: 100))
            let error = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0, to: t0.advanced(by: .seconds(1))) }
            #expect(error?.message.hasPrefix("PPK2 at /dev/ttyACM9: its 60100 samples run ahead of the host clock by 0.6 seconds more than a drift of 100 ppm allows") == true, "\(String(describing: error))")
            await stream.stop()
        }
    }

    /// A meter whose count runs `ppm` slow (positive) or fast (negative) against the host clock, read every 6,400
    /// samples (64 ms of them) exactly when its last one is taken, 20 s long; its current steps from 1,000 to 3,000
    /// counts at sample 1,920,000, the end of the 300th read. Returns the figures of the 2 ms centred on the step
    /// as it truly fell on the host clock, taken with the stream's drift rate `rate` once the 312 reads are in.
    static func figuresAcrossTheStep(ppm: Int, rate: Int) async throws -> (figures: CurrentFigures, low: Double, high: Double) {
        try await withSteppedTime { time in
            let channel = ScriptedMeterChannel()
            let t0 = time.now
            let meter = PPK2Meter(channel: channel, clock: time.clock, streamDeadline: .seconds(10))
            let stream = try await PPK2Stream(meter: meter, decoder: decoder(), maximumDriftRate: rate)
            // 6,400 samples: their counters start at 0 again each read, so every read's words are the same.
            let low = words(Array(repeating: 1000, count: 6_400)), high = words(Array(repeating: 3000, count: 6_400))
            // The host time one read's samples take: 64 ms × (1 + ppm / 10⁶), in nanoseconds.
            let interval = Duration.nanoseconds(64_000_000 + 64 * ppm)
            for read in 1...312 {
                await time.advance(by: interval)
                channel.meterSends(read <= 300 ? low : high)
                await channel.untilReceiving(read + 1)
            }
            let step = t0.advanced(by: interval * 300)
            let figures = try await stream.figures(from: step.advanced(by: .milliseconds(-1)), to: step.advanced(by: .milliseconds(1)))
            await stream.stop()
            var reference = decoder()
            let currents = try reference.decode(words([1000, 3000])).map(\.microamperes)
            return (figures, currents[0], currents[1])
        }
    }

    /// A PPK2's crystal and the host's clock differ by tens of ppm: over a run the count drifts from the clock by
    /// far more than a sample. Each window is placed by the reads near it, so 20 s in, the 2 ms around a step in
    /// the current hold 100 samples before it and 100 after, whichever way the count drifts.
    @Test("A count that drifts from the host clock within 100 ppm is placed by the reads near each window", arguments: [80, -80])
    func driftWithinTheRate(ppm: Int) async throws {
        let (figures, low, high) = try await Self.figuresAcrossTheStep(ppm: ppm, rate: 100)
        #expect(figures.samples == 200)
        #expect(abs(figures.averageMicroamperes - (low + high) / 2) < 1e-9 * high, "\(figures.averageMicroamperes) vs \((low + high) / 2)")
    }

    /// The check can fail: with no drift allowed (sample 0 placed by the earliest read of the run, as before), the
    /// count 80 ppm slow places the window 1.5 ms late, after the step: every sample in it is at the high current,
    /// and nothing says so (1.5 ms is far within the 0.5 s bound).
    @Test("With no drift allowed, a count 80 ppm slow places a window 20 s in 1.5 ms late")
    func driftWithoutTheRate() async throws {
        let (figures, _, high) = try await Self.figuresAcrossTheStep(ppm: 80, rate: 0)
        #expect(figures.samples == 200)
        #expect(abs(figures.averageMicroamperes - high) < 1e-9 * high, "\(figures.averageMicroamperes) vs \(high)")
    }

    /// A reader the host scheduled late: its reads that leave octets waiting are behind the meter, not the meter
    /// behind the clock. The emulated PPK2 of the lab twin keeps the samples owed (a backlog), as a USB serial
    /// port holds what its reader has not taken.
    @Test("A read that left octets waiting is not drift: the lag is checked at the reads that drained the port")
    func readerBehind() async throws {
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await Self.streaming(time)
            // 600 ms later a read of 100 samples that left more waiting: 599 ms behind, the reader's lateness.
            await time.advance(by: .milliseconds(600))
            channel.meterSends(Self.words(Self.hundred, from: 100), more: true)
            await channel.untilReceiving(3)
            // The rest of the backlog in the same instant: 60,000 samples in all, 0.6 s of them, caught up.
            channel.meterSends(Self.words(Array(repeating: 1000, count: 59_800), from: 200))
            await channel.untilReceiving(4)
            #expect(stream.samples == 60_000)
            // Seen from t0 + 500 ms the first read (at t0 + 1 ms, sample 0 at t0) bounds sample 0 at t0 + 49.9 µs
            // (100 ppm of the 499 ms between): [t0, t0 + 500 ms) is samples 0 to 49,995.
            let figures = try await stream.figures(from: t0, to: t0.advanced(by: .milliseconds(500)))
            #expect(figures.samples == 49_996)
            // A drained read still behind by more than 0.5 s is drift: at t0 + 1.111 s 60,100 samples say t0 + 510 ms,
            // where the first read bounds sample 0 at t0 + 111 µs.
            await time.advance(by: .milliseconds(510))
            channel.meterSends(Self.words(Self.hundred, from: 60_000))
            let error = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0, to: t0.advanced(by: .seconds(2))) }
            #expect(error?.message.hasPrefix("PPK2 at /dev/ttyACM9: its 60100 samples lag behind the host clock by 0.509889 seconds more than a drift of 100 ppm allows (at most 0.5 seconds) 1.110889 seconds after the stream started") == true, "\(String(describing: error))")
            await stream.stop()
        }
    }

    @Test("A read that left octets waiting places sample 0 late: the read that drained the port places it")
    func anchorAtTheDrainingRead() async throws {
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await Self.started(time)
            // 300 ms after the start, a first read of 100 samples leaves the rest waiting; 2 ms later the rest of
            // the 30,000 come, draining the port: sample 0 was taken at t0 + 2 ms.
            await time.advance(by: .milliseconds(300))
            channel.meterSends(Self.words(Self.hundred), more: true)
            await channel.untilReceiving(2)
            await time.advance(by: .milliseconds(2))
            channel.meterSends(Self.words(Array(repeating: 1000, count: 29_900), from: 100))
            await channel.untilReceiving(3)
            // [t0 + 2 ms, t0 + 3 ms): seen from there, the draining read (299 ms later) bounds sample 0 at t0 + 2 ms
            // + 29.9 µs (100 ppm of the 299 ms), so samples 0 to 97 of the hundred the first read brought; the first
            // read alone would have placed them 297 ms later.
            var reference = Self.decoder()
            let decoded = try reference.decode(Self.words(Self.hundred)).map(\.microamperes)
            let figures = try await stream.figures(from: t0.advanced(by: .milliseconds(2)), to: t0.advanced(by: .milliseconds(3)))
            #expect(figures.samples == 98)
            #expect(abs(figures.averageMicroamperes - decoded[0..<98].reduce(0, +) / 98) < 1e-9 * figures.averageMicroamperes)
            await stream.stop()
        }
    }

    /// The lab twin's emulated PPK2 behind a starved guest: a read drains the port while samples still wait on the
    /// way (in the gadget, the emulated host controller), so the first drained read places sample 0 late.
    @Test("The anchor moves to the earliest instant a read allows: a later read that found the path emptier places it")
    func anchorAtTheEarliestRead() async throws {
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await Self.started(time)
            // 300 ms after the start, 10,000 samples (100 ms of them) drain the port: sample 0 at t0 + 200 ms, it says.
            await time.advance(by: .milliseconds(300))
            let first = Array(repeating: UInt32(1000), count: 10_000), second = Array(repeating: UInt32(3000), count: 30_000)
            channel.meterSends(Self.words(first))
            await channel.untilReceiving(2)
            // 100 ms later 30,000 more: 400 ms of samples in all, read 400 ms after the start: sample 0 at t0.
            await time.advance(by: .milliseconds(100))
            channel.meterSends(Self.words(second, from: first.count))
            await channel.untilReceiving(3)
            // [t0 + 50 ms, t0 + 150 ms): the second read bounds sample 0 at t0 + 35 µs and t0 + 25 µs seen from the
            // window's edges (100 ppm of the 350 ms and 250 ms between), so samples 4,997 to 14,997: about half of each
            // reading (none at all from t0 + 200 ms, where the first read alone would have placed sample 0).
            var reference = Self.decoder()
            let decoded = try reference.decode(Self.words(first + second)).map(\.microamperes)
            let figures = try await stream.figures(from: t0.advanced(by: .milliseconds(50)), to: t0.advanced(by: .milliseconds(150)))
            #expect(figures.samples == 10_001)
            let expected = decoded[4_997..<14_998].reduce(0, +) / 10_001
            #expect(abs(figures.averageMicroamperes - expected) < 1e-9 * expected, "\(figures.averageMicroamperes) vs \(expected)")
            #expect(decoded[5_000] != decoded[14_999])
            await stream.stop()
        }
    }

    /// A PPK2 whose counter jumps: the samples lost are filled (`PPK2Decoder`), and a window counts those in it.
    @Test("A window counts its samples that stand in for samples lost: all of a gap inside it, the part of one across its edge")
    func lostSamples() async throws {
        try await withSteppedTime { time in
            // 45 samples numbered 0 to 44, then 45 numbered from 55: samples 45 to 54 stand in for the ten lost,
            // and the read's 100 samples place sample 0 at t0.
            let stream = Self.words(Array(Self.hundred.prefix(45))) + Self.words(Array(Self.hundred.suffix(45)), from: 55)
            let (_, t0, ppk2) = try await Self.streaming(time, first: stream)
            var reference = Self.decoder()
            let decoded = try reference.decode(stream).map(\.microamperes)
            #expect(decoded.count == 100 && reference.lostSamples == 10)
            let across = try await ppk2.figures(from: t0.advanced(by: .microseconds(400)), to: t0.advanced(by: .microseconds(600)))
            #expect(across.samples == 20 && across.lostSamples == 10)
            #expect(abs(across.averageMicroamperes - decoded[40..<60].reduce(0, +) / 20) < 1e-9 * across.averageMicroamperes)
            let edge = try await ppk2.figures(from: t0.advanced(by: .microseconds(500)), to: t0.advanced(by: .milliseconds(1)))
            #expect(edge.samples == 50 && edge.lostSamples == 5)
            let before = try await ppk2.figures(from: t0, to: t0.advanced(by: .microseconds(450)))
            #expect(before.samples == 45 && before.lostSamples == 0)
            await ppk2.stop()
        }
    }

    @Test("More than 65,536 gaps in the samples kept fail the stream: a path that loses so much is not measured")
    func tooManyLosses() async throws {
        try await withSteppedTime { time in
            // A stream deadline past the read's instant: the read, not the deadline, must end the stream.
            let (channel, t0, stream) = try await Self.started(time, streamDeadline: .seconds(10))
            // 65,538 words whose counters go up by two: 65,537 gaps of one sample, 131,075 samples, 1.31075 s.
            let words = (0..<65_538).flatMap { PPK2MeterTests.word(reading: 1000, range: 1, counter: 2 * $0) }
            await time.advance(by: .microseconds(1_310_750))
            channel.meterSends(words)
            let error = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0, to: t0.advanced(by: .seconds(1))) }
            #expect(error == PowerMeterError(.protocolViolation, "PPK2 at /dev/ttyACM9: its sample counter jumped 65537 times (more than 65536) in the 131075 samples kept, 65537 samples lost between the PPK2 and the host: the path loses too many to measure"))
            await stream.stop()
        }
    }

    @Test("A window from AVERAGE_START on but before the anchor (late by the first read's latency) starts at sample 0")
    func beforeTheAnchor() async throws {
        try await withSteppedTime { time in
            // Sent at t0, read at t0 + 1 ms with 50 samples: the anchor is t0 + 0.5 ms.
            let (_, t0, stream) = try await Self.streaming(time, first: Self.words(Array(Self.hundred.prefix(50))))
            var reference = Self.decoder()
            let decoded = try reference.decode(Self.words(Array(Self.hundred.prefix(50)))).map(\.microamperes)
            // [t0 + 0.2 ms, t0 + 0.8 ms): from sample 0 to sample 30 (0.3 ms after the anchor).
            let figures = try await stream.figures(from: t0.advanced(by: .microseconds(200)), to: t0.advanced(by: .microseconds(800)))
            #expect(figures.samples == 30)
            #expect(abs(figures.averageMicroamperes - decoded[0..<30].reduce(0, +) / 30) < 1e-9 * figures.averageMicroamperes)
            let early = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0.advanced(by: .milliseconds(-1)), to: t0) }
            // Seen from t0 - 1 ms the read at t0 + 1 ms bounds sample 0 at t0 + 0.5 ms + 0.2 µs (100 ppm of 2 ms).
            #expect(early == PowerMeterError(.unavailable, "PPK2 at /dev/ttyACM9: a window starts 0.0015002 seconds before its stream did"))
            await stream.stop()
        }
    }

    @Test("A window from before the stream started, or after it was stopped, is refused")
    func outside() async throws {
        try await withSteppedTime { time in
            let (_, t0, stream) = try await Self.streaming(time)
            let early = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0.advanced(by: .milliseconds(-3)), to: t0) }
            // Seen from t0 - 3 ms the read at t0 + 1 ms bounds sample 0 at t0 + 0.4 µs (100 ppm of 4 ms).
            #expect(early == PowerMeterError(.unavailable, "PPK2 at /dev/ttyACM9: a window starts 0.0030004 seconds before its stream did"))
            await stream.stop()
            let stopped = await #expect(throws: PowerMeterError.self) { try await stream.figures(from: t0, to: t0.advanced(by: .microseconds(500))) }
            #expect(stopped == PowerMeterError(.unavailable, "PPK2 at /dev/ttyACM9: its stream was stopped"))
        }
    }
}
