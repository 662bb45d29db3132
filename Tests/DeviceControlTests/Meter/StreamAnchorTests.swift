@testable import DeviceControl
import SeededRandom
import Testing

/// The anchor a stream's reads bound, drift allowed: what the kept reads give is what every read would give (the
/// least of `start + rate × |x − t|` over all of them), for reads the size of a real stream's and times to the
/// microsecond, where the arithmetic is exact.
@Suite struct StreamAnchorTests {
    struct Read { var time: Duration; var start: Duration }

    /// A stream's reads: every 0.1 to 20 ms, each late by 0 to 5 ms (a tenth of them not at all) on a start
    /// that drifts by `ppm` within the rate.
    static func reads(count: Int, ppm: Int64, seed: UInt64) -> [Read] {
        var random = SplitMix64(seed: seed)
        var time = Duration.microseconds(500), reads: [Read] = []
        for _ in 0..<count {
            time += .microseconds(Int64(100 + random.next() % 19_900))
            let late = random.next() % 10 == 0 ? .zero : Duration.microseconds(Int64(random.next() % 5_000))
            // The true start drifts `ppm` a second: whole microseconds once every 10⁶ / ppm µs.
            let drift = Duration.microseconds(Int64(time / .microseconds(1)) * ppm / 1_000_000)
            reads.append(Read(time: time, start: drift + late))
        }
        return reads
    }

    /// What every read bounds sample 0's instant at, seen from `time`: the least bound.
    static func everyRead(_ reads: [Read], at time: Duration, ppm: Int64) -> Duration {
        reads.map { read in
            let span = read.time > time ? read.time - time : time - read.time
            return read.start + span / 1_000_000 * Int(ppm)
        }.min() ?? .zero
    }

    @Test("The reads kept give what every read gives, at every instant", arguments: [(Int64(100), Int64(60)), (100, -60), (1000, 0), (0, 0)])
    func keptReadsBoundAsEveryRead(rate: Int64, drift: Int64) {
        let reads = Self.reads(count: 3_000, ppm: drift, seed: 0x5EED + UInt64(rate))
        var anchor = StreamAnchor(ppm: rate, merge: .zero)
        var random = SplitMix64(seed: 7)
        for (index, read) in reads.enumerated() {
            anchor.add(start: read.start, at: read.time)
            // After some reads, instants before, among and after them.
            guard index % 97 == 0 else { continue }
            for _ in 0..<20 {
                let last = Int64(reads[index].time / .microseconds(1))
                let time = Duration.microseconds(Int64(random.next() % UInt64(last + 20_000)) - 10_000)
                #expect(anchor.start(at: time) == Self.everyRead(Array(reads[...index]), at: time, ppm: rate), "after read \(index), at \(time)")
            }
        }
        #expect(anchor.kept < reads.count)
    }

    /// A stream's true start drifts at most the rate (here ±90 ppm, changing every few seconds) and every read is
    /// late on it: the anchor is then never earlier than the truth, and late by at most twice the rate over the time
    /// to the read that was not late nearest each instant, and the rate over the 10 ms within which reads are merged.
    @Test("On reads late at random and a start drifting within the rate, the anchor is never early and late by at most the drift to an on-time read")
    func neverEarlyAndLateByTheDriftToAnOnTimeRead() throws {
        var random = SplitMix64(seed: 0xD81F7)
        var anchor = StreamAnchor(ppm: 100)
        var truth: [(time: Duration, start: Duration)] = [], onTime: [Duration] = []
        var time = Duration.zero, start = Duration.zero, ppm: Int64 = 0
        for index in 0..<20_000 {
            let step = Duration.microseconds(Int64(200 + random.next() % 4_800))
            if index % 1_000 == 0 { ppm = Int64(random.next() % 181) - 90 }
            time += step
            start += step / 1_000_000 * Int(ppm)
            truth.append((time, start))
            // Most reads 0 to 3 ms late, one in a hundred a stall of up to 60 ms, one in twenty on time.
            let late: Duration = switch random.next() % 100 {
            case 0: .microseconds(Int64(random.next() % 60_000))
            case 1...5: .zero
            default: .microseconds(Int64(random.next() % 3_000))
            }
            if late == .zero { onTime.append(time) }
            anchor.add(start: start + late, at: time)
        }
        for (time, start) in truth.enumerated().filter({ $0.offset % 50 == 0 }).map(\.element) {
            let placed = try #require(anchor.start(at: time))
            let nearest = onTime.map { $0 > time ? $0 - time : time - $0 }.min() ?? .seconds(100)
            #expect(placed >= start, "at \(time) the anchor \(placed) is before the true start \(start)")
            let bound = anchor.drift(over: nearest) * 2 + anchor.drift(over: anchor.merge)
            #expect(placed - start <= bound, "at \(time): \(placed - start) late, an on-time read \(nearest) away")
        }
    }

    @Test("With no drift allowed, the anchor is the earliest start any read gave, everywhere")
    func noDriftIsTheEarliestStart() {
        let reads = Self.reads(count: 1_000, ppm: 0, seed: 3)
        var anchor = StreamAnchor(ppm: 0)
        for read in reads { anchor.add(start: read.start, at: read.time) }
        let earliest = reads.map(\.start).min()
        #expect(anchor.kept == 1)
        for time in [Duration.zero, .milliseconds(500), reads[999].time + .seconds(1)] { #expect(anchor.start(at: time) == earliest) }
    }

    @Test("Reads within the merge interval are kept as one: the anchor is then late by at most the drift over it, never early")
    func mergedReadsAreLateByAtMostTheDriftOverTheInterval() throws {
        let reads = Self.reads(count: 3_000, ppm: 50, seed: 11)
        var exact = StreamAnchor(ppm: 100, merge: .zero), merged = StreamAnchor(ppm: 100, merge: .milliseconds(10))
        for read in reads {
            exact.add(start: read.start, at: read.time)
            merged.add(start: read.start, at: read.time)
        }
        let span = reads[reads.count - 1].time - reads[0].time
        #expect(merged.kept <= Int(span / .milliseconds(10)) + 1)
        let slack = merged.drift(over: .milliseconds(10))
        for step in 0...1_000 {
            let time = reads[0].time + span / 1_000 * step
            let precise = try #require(exact.start(at: time)), coarse = try #require(merged.start(at: time))
            #expect(coarse >= precise && coarse - precise <= slack, "at \(time): \(coarse) vs \(precise)")
        }
    }

    @Test("Reads older than the horizon are forgotten: an early read no longer bounds the anchor")
    func readsPastTheHorizonAreForgotten() {
        var anchor = StreamAnchor(ppm: 100, merge: .zero, horizon: .seconds(60))
        anchor.add(start: .zero, at: .milliseconds(1))
        anchor.add(start: .milliseconds(20), at: .seconds(30))
        // 30 s on, the first read still bounds it: 0 + 100 ppm of 29.999 s.
        #expect(anchor.start(at: .seconds(30)) == .microseconds(2_999_900) / 1_000)
        #expect(anchor.kept == 1, "the later read is bounded by the first everywhere")
        // 61 s on, the first is past the 60 s horizon: the read then bounds it alone.
        anchor.add(start: .milliseconds(20), at: .seconds(61))
        #expect(anchor.kept == 1)
        #expect(anchor.start(at: .seconds(61)) == .milliseconds(20))
        #expect(StreamAnchor(ppm: 100).start(at: .zero) == nil)
    }
}
