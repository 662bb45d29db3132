import PowerMeters
import Support
import Synchronization

/// A PPK2 streaming for as long as a run lasts, its samples placed on a host clock: sample n was taken at the
/// stream's anchor plus n × 10 µs (the PPK2's 100 kHz count). Each read says when sample 0 was taken at the latest:
/// the read's instant less the time its samples so far stand for, late by whatever the samples spent on the way
/// (the USB path, the port's buffers, a reader the host scheduled late). The count drifts from the host clock (the
/// PPK2's crystal, the host's own), so the anchor is seen from each instant (`StreamAnchor`): the least of what the
/// reads say, each plus the drift `maximumDriftRate` allows between it and that instant, so the read near a window
/// that found the path emptiest places it, and a run hours long keeps its windows on their samples. Windows are read
/// once a read has drained the port, so the figures of any window of the clock can be read once the window's
/// samples have come — at most `lateness` after its end. Beyond that rate the count may drift by at most
/// `maximumDrift` (samples lost on the way, a meter off its 100 kHz): a count ahead of the clock is checked at every
/// read against the first read that drained the port, one behind it at the reads that drained the port, since a
/// read that left octets waiting (a reader the host scheduled late, catching up) says how far the reader has come,
/// not the meter. Past the bound, or when the stream stops for the meter's stream deadline or reports a range
/// error, the stream fails with what the meter last sent, and every window asked for afterwards throws that
/// `PowerMeterError`. A window's figures count the samples in it that stand in for samples lost on the way (gaps in
/// the PPK2's sample counter, `PPK2Decoder`); more than `maximumLosses` gaps in the samples kept fail the stream.
/// Memory is bounded (`SampleSums`, the gaps, and the reads `StreamAnchor` keeps).
package final class PPK2Stream<C: Clock<Duration>>: Sendable {
    package let meter: PPK2Meter<C>
    package let supplyVolts: Double
    /// How long after a window's end `figures` waits for its samples.
    package let lateness: Duration
    /// How far the sample count may run ahead of, or lag behind, the host clock beyond `maximumDriftRate`.
    package let maximumDrift: Duration
    /// How fast, in parts per million, the sample count may drift from the host clock without limit: the PPK2's
    /// crystal (±40 ppm at most) and the host clock (tens of ppm unsynchronised, far less once NTP has its frequency).
    package let maximumDriftRate: Int

    /// The time one sample stands for.
    package static var samplePeriod: Duration { .seconds(1) / PPK2Sample.perSecond }

    private struct State: Sendable {
        var sums: SampleSums
        /// What the reads say of sample 0's instant, on durations from `commanded`.
        var anchor: StreamAnchor
        /// What the first read that drained the port said (and when it came, from `commanded`): a count running
        /// ahead of the clock is measured from it.
        var firstDrained: (start: Duration, time: Duration)?
        var failure: PowerMeterError?
        /// Where the samples stand that stand in for samples lost (gaps in the PPK2's sample counter), in order,
        /// back to the oldest sample kept.
        var losses: [Range<Int>] = []
        var last: [UInt8] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>
    private let reader = Mutex<Task<Void, Never>?>(nil)
    /// When AVERAGE_START was sent: the stream cannot have started before it, and its anchor (late by its read's
    /// latency) not before it either; a window starting in between starts at sample 0.
    private let commanded: C.Instant

    /// Starts the stream (AVERAGE_START) on a meter already configured, decoding with `decoder`.
    package init(meter: PPK2Meter<C>, decoder: PPK2Decoder, sums: SampleSums = SampleSums(), lateness: Duration = .seconds(2),
                 maximumDrift: Duration = .milliseconds(500), maximumDriftRate: Int = 100) async throws(PowerMeterError) {
        self.meter = meter
        supplyVolts = decoder.supplyVolts
        self.lateness = lateness
        self.maximumDrift = maximumDrift
        self.maximumDriftRate = maximumDriftRate
        state = Mutex(State(sums: sums, anchor: StreamAnchor(ppm: Int64(maximumDriftRate))))
        commanded = meter.clock.now
        try await meter.channel.send(PPK2Command.startSampling.octets)
        let task = Task { [self] in await read(decoder) }
        reader.withLock { $0 = task }
    }

    /// Sends a command while the stream runs (DEVICE_RUNNING_SET, say).
    package func send(_ command: PPK2Command) async throws(PowerMeterError) {
        try await meter.channel.send(command.octets)
    }

    /// The samples received so far.
    package var samples: Int { state.withLock { $0.sums.count } }

    /// Stops the stream (AVERAGE_STOP) and the reading; windows asked for afterwards throw.
    package func stop() async {
        let task = reader.withLock { $0 }
        task?.cancel()
        await task?.value
        fail(PowerMeterError(.unavailable, "PPK2 at \(meter.channel.name): its stream was stopped"))
        try? await meter.channel.send(PPK2Command.stopSampling.octets)
    }

    private func read(_ decoder: PPK2Decoder) async {
        var decoder = decoder
        let name = meter.channel.name, limit = meter.streamDeadline, clock = meter.clock, channel = meter.channel
        while !Task.isCancelled {
            do {
                let octets = try await withDeadline(limit, clock: clock, timeout: { [self] in
                    let (count, last) = state.withLock { ($0.sums.count, $0.last) }
                    return PowerMeterError(.timeout, "PPK2 at \(name) stopped streaming: no sample within \(limit) after \(count) samples; it last sent \(PPK2Meter<C>.quote(last))")
                }) { try await channel.nextRead() }
                var gaps: [Range<Int>] = []
                let decoded = try decoder.decode(octets.octets, gaps: &gaps)
                try take(decoded, gaps: gaps, last: octets.octets, drained: octets.drained, at: clock.now)
            } catch is CancellationError {
                return
            } catch let error as PowerMeterError {
                fail(error)
                return
            } catch {
                fail(PowerMeterError(.io, "PPK2 at \(name): \(error)"))
                return
            }
        }
    }

    /// Adds what one read brought (`gaps`: where in it samples stand in for samples lost), bounds the anchor by it,
    /// and checks the drift.
    private func take(_ decoded: [PPK2Sample], gaps: [Range<Int>], last octets: [UInt8], drained: Bool, at now: C.Instant) throws(PowerMeterError) {
        let period = Self.samplePeriod, bound = maximumDrift
        let waiters = try state.withLock { state throws(PowerMeterError) -> [CheckedContinuation<Void, Never>] in
            state.last = Array(octets.suffix(16))
            let base = state.sums.count
            state.sums.add(decoded)
            try keepLosses(gaps, from: base, in: &state)
            let count = state.sums.count
            guard count > 0 else { return [] }
            let time = commanded.duration(to: now), start = time - period * count
            if state.firstDrained == nil, drained { state.firstDrained = (start, time) }
            if let first = state.firstDrained {
                let ahead = first.start - start - state.anchor.drift(over: time - first.time)
                if ahead > bound { throw drift(count: count, by: .zero - ahead, after: time - first.start, last: state.last) }
            }
            state.anchor.add(start: start, at: time)
            if state.firstDrained != nil, drained, let anchor = state.anchor.start(at: time) {
                // The reads so far bound sample 0 at `anchor`, drift allowed; this one says `start`.
                let lag = start - anchor
                if lag > bound { throw drift(count: count, by: lag, after: time - anchor, last: state.last) }
            }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The most gaps in the sample counter kept (16 octets each): a path that loses samples so often gives figures
    /// that are more guessed than measured, and the stream fails.
    static var maximumLosses: Int { 1 << 16 }

    /// Keeps a read's gaps, its first sample being sample `base`, and forgets those older than the sums kept.
    private func keepLosses(_ gaps: [Range<Int>], from base: Int, in state: inout State) throws(PowerMeterError) {
        guard !gaps.isEmpty || !state.losses.isEmpty else { return }
        state.losses += gaps.map { $0.lowerBound + base..<$0.upperBound + base }
        let oldest = state.sums.oldestKept
        let expired = state.losses.firstIndex(where: { $0.upperBound > oldest }) ?? state.losses.count
        if expired > 0 { state.losses.removeFirst(expired) }
        if state.losses.count > Self.maximumLosses {
            let lost = state.losses.reduce(0) { $0 + $1.count }
            throw PowerMeterError(.protocolViolation, "PPK2 at \(meter.channel.name): its sample counter jumped \(state.losses.count) times (more than \(Self.maximumLosses)) in the \(state.sums.count - oldest) samples kept, \(lost) samples lost between the PPK2 and the host: the path loses too many to measure")
        }
    }

    /// How many of samples [`first`, `last`) stand in for samples lost.
    private static func lost(_ losses: [Range<Int>], from first: Int, to last: Int) -> Int {
        var low = 0, high = losses.count
        while low < high {
            let middle = (low + high) / 2
            if losses[middle].upperBound <= first { low = middle + 1 } else { high = middle }
        }
        var count = 0
        for loss in losses[low...] {
            guard loss.lowerBound < last else { break }
            count += min(loss.upperBound, last) - max(loss.lowerBound, first)
        }
        return count
    }

    /// The stream's failure for a count `lag` behind the clock (ahead of it when negative) beyond the drift its
    /// rate allows, `elapsed` after the stream started.
    private func drift(count: Int, by lag: Duration, after elapsed: Duration, last: [UInt8]) -> PowerMeterError {
        let how = lag > .zero ? "lag behind" : "run ahead of"
        let magnitude = lag > .zero ? lag : .zero - lag
        return PowerMeterError(.timeout, "PPK2 at \(meter.channel.name): its \(count) samples \(how) the host clock by \(magnitude) more than a drift of \(maximumDriftRate) ppm allows (at most \(maximumDrift)) \(elapsed) after the stream started: it does not stream 100,000 samples a second; it last sent \(PPK2Meter<C>.quote(last))")
    }

    /// Resumes every wait for samples, to look again.
    private func wake() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func fail(_ error: PowerMeterError) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.failure == nil { state.failure = error }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Sample 0's instant as the reads place it, seen from `instant`; nil until a read has drained the port.
    private func anchor(at instant: C.Instant, in state: State) -> C.Instant? {
        guard state.firstDrained != nil, let start = state.anchor.start(at: commanded.duration(to: instant)) else { return nil }
        return commanded.advanced(by: start)
    }

    /// The index of the first sample taken at or after `instant`, `anchor` being sample 0's instant.
    static func sampleIndex(of instant: C.Instant, anchor: C.Instant) -> Int {
        let (seconds, attoseconds) = anchor.duration(to: instant).components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let period = Int64(1_000_000_000 / PPK2Sample.perSecond)
        let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: period)
        return Int(remainder > 0 ? quotient + 1 : quotient)
    }

    /// The figures of [`start`, `end`) on the clock: waits until the window's samples have come, until `lateness`
    /// after `end` at most. Throws the stream's failure, a timeout saying how far the stream came, or
    /// `.unavailable` for a window before the stream started or older than the sums kept.
    package func figures(from start: C.Instant, to end: C.Instant) async throws -> CurrentFigures {
        let name = meter.channel.name
        // Samples already come are taken without a wait: a window that ended more than `lateness` ago (an early
        // span of a long case) would otherwise race a deadline already past.
        let bounds: (Int, Int)
        if let already = try ready(start, end) { bounds = already } else { bounds = try await arrival(from: start, to: end) }
        let (sum, lost) = try state.withLock { state throws(PowerMeterError) -> (Double, Int) in
            guard let sum = state.sums.sum(from: bounds.0, to: bounds.1) else {
                throw PowerMeterError(.unavailable, "PPK2 at \(name): a window from sample \(bounds.0) is older than the samples kept (from \(state.sums.oldestKept) of \(state.sums.count))")
            }
            return (sum, Self.lost(state.losses, from: bounds.0, to: bounds.1))
        }
        var figures = CurrentFigures(sum: sum, samples: bounds.1 - bounds.0, samplesPerSecond: PPK2Sample.perSecond, supplyVolts: supplyVolts)
        figures.lostSamples = lost
        return figures
    }

    /// Waits for the window's samples, until `lateness` after `end`: its first and past-last sample indices.
    private func arrival(from start: C.Instant, to end: C.Instant) async throws -> (Int, Int) {
        let name = meter.channel.name, clock = meter.clock, lateness = lateness
        let limit = max(.zero, clock.now.duration(to: end.advanced(by: lateness)))
        return try await withDeadline(limit, clock: clock, timeout: { [self] in
            let (count, anchor, last) = state.withLock { ($0.sums.count, self.anchor(at: end, in: $0), $0.last) }
            let wanted = anchor.map { "sample \(Self.sampleIndex(of: end, anchor: $0))" } ?? "a first sample"
            return PowerMeterError(.timeout, "PPK2 at \(name): the samples up to a window's end (\(wanted)) had not come \(lateness) after it; \(count) samples came; it last sent \(PPK2Meter<C>.quote(last))")
        }) { [self] () async throws -> (Int, Int) in
            while true {
                if let bounds = try ready(start, end) { return bounds }
                try Task.checkCancellation()
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        // Under the lock the cancellation handler takes: a cancellation that came first is seen here.
                        let now = state.withLock { state -> Bool in
                            if state.failure != nil || Task.isCancelled { return true }
                            state.waiters.append(continuation)
                            return false
                        }
                        if now { continuation.resume() }
                    }
                } onCancel: {
                    wake()
                }
            }
        }
    }

    /// The window's first and past-last sample indices once its samples have come; nil while they have not.
    private func ready(_ start: C.Instant, _ end: C.Instant) throws(PowerMeterError) -> (Int, Int)? {
        let name = meter.channel.name
        return try state.withLock { state throws(PowerMeterError) -> (Int, Int)? in
            if let failure = state.failure { throw failure }
            guard let anchor = self.anchor(at: start, in: state), let endAnchor = self.anchor(at: end, in: state) else { return nil }
            var first = Self.sampleIndex(of: start, anchor: anchor)
            if first < 0, start >= commanded { first = 0 }
            let last = max(first, Self.sampleIndex(of: end, anchor: endAnchor))
            guard first >= 0 else {
                throw PowerMeterError(.unavailable, "PPK2 at \(name): a window starts \(start.duration(to: anchor)) before its stream did")
            }
            return state.sums.count >= last ? (first, last) : nil
        }
    }
}
