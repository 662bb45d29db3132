/// Where a meter's sample 0 stands on the host clock, as the stream's reads bound it, for a count that may drift
/// from that clock. A read at host time `t` that has brought `n` samples says sample 0 was taken at `t − n × period`
/// at the latest (later by what its samples spent on the way): its *start*. The true start may drift, at most
/// `rate` seconds a second (the meter's crystal, the host clock's NTP slewing), so a read at `t` bounds the start at
/// any time `x` by `start + rate × |x − t|`. The anchor at `x` is the least of those bounds over every read kept:
/// the read that found the path emptiest places it near its own time, and one far away only when it did better by
/// more than the drift since. At rate 0 it is the earliest start any read gave.
///
/// Kept are only the reads no other read bounds better everywhere. Read `j` bounds better than read `k` everywhere
/// when `start_j + rate × |t_j − t_k| ≤ start_k`; with `a = start − rate × t` and `b = start + rate × t`, the reads
/// kept, in time order, have `a` falling and `b` rising. So the bound at `x` comes from two reads, the last kept
/// at or before `x` (least `a`, bound `a + rate × x`) and the first kept after it (least `b`, bound `b − rate × x`),
/// found by a binary search. A read is merged with the one kept before it when both fall within `merge` of each
/// other (the one with the earlier start stays: the anchor is then at most `rate × merge` late), so at most one
/// read is kept each `merge` of host time, and reads more than `horizon` older than the last are forgotten.
struct StreamAnchor: Sendable {
    /// How fast the start may drift, in parts per million.
    let ppm: Int64
    /// Reads closer than this in host time are kept as one.
    let merge: Duration
    /// How long reads are kept.
    let horizon: Duration

    private struct Read: Sendable {
        /// When it came, and the start it says (both from the stream's origin).
        var time: Duration
        var start: Duration
    }

    /// The reads kept, in time order: `a` falling, `b` rising.
    private var reads: [Read] = []
    /// Reads before this index are forgotten (removed in batches).
    private var first = 0

    init(ppm: Int64, merge: Duration = .milliseconds(10), horizon: Duration = .seconds(40 * 60)) {
        self.ppm = ppm
        self.merge = merge
        self.horizon = horizon
    }

    var isEmpty: Bool { first == reads.count }

    /// How many reads are kept.
    var kept: Int { reads.count - first }

    /// How far the start may drift over `span` (of either sign).
    func drift(over span: Duration) -> Duration {
        scaled(span < .zero ? .zero - span : span)
    }

    /// A read's `a` and `b`: its start less, and plus, the drift since the origin.
    private func a(_ read: Read) -> Duration { read.start - scaled(read.time) }
    private func b(_ read: Read) -> Duration { read.start + scaled(read.time) }

    /// `duration` × the rate, keeping its sign.
    private func scaled(_ duration: Duration) -> Duration {
        duration / 1_000_000 * Int(ppm)
    }

    /// Takes a read that came at `time` saying sample 0 was taken at `start` at the latest.
    mutating func add(start: Duration, at time: Duration) {
        while first < reads.count, reads[first].time < time - horizon { first += 1 }
        if first > 4096 && first * 2 > reads.count {
            reads.removeFirst(first)
            first = 0
        }
        let read = Read(time: time, start: start)
        if first < reads.count, let last = reads.last {
            if a(read) >= a(last) { return }  // bounded everywhere by a read kept
            if time - last.time < merge {
                // One read kept each `merge`: the later one's time with the earlier start of the two.
                guard start < last.start else { return }
                reads.removeLast()
            }
        }
        while reads.count > first, let last = reads.last, b(last) >= b(read) { reads.removeLast() }
        reads.append(read)
    }

    /// The anchor at `time`: the latest sample 0's instant can be, seen from there; nil before any read.
    func start(at time: Duration) -> Duration? {
        guard !isEmpty else { return nil }
        // The first kept read after `time`.
        var low = first, high = reads.count
        while low < high {
            let middle = (low + high) / 2
            if reads[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        var best: Duration?
        if low > first { best = a(reads[low - 1]) + scaled(time) }
        if low < reads.count {
            let after = b(reads[low]) - scaled(time)
            best = min(best ?? after, after)
        }
        return best
    }
}
