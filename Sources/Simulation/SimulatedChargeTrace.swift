import EventLoops
import PowerMeters
import Synchronization

/// The charge a simulated accessory draws, as its current model says, on the world's clock: its powered
/// spans (at the sleep current), a charge at each instant its radio does something (an advertising event, a
/// PDU's air time, a boot), and the trains of its connection events (one charge per connection interval
/// from the link's anchor, until the link ends or its parameters change).
///
/// A window's charge is integrated exactly, not sampled: a radio event's charge counts at its instant, and
/// sampling every few µs would only blur that (and, on virtual time, cost as many steps as samples). So two
/// virtual-time runs of the same rig and seed give equal figures to the last bit. Times are kept as
/// nanoseconds from the trace's start. Written on the air's loop, read from anywhere.
package final class SimulatedChargeTrace: Sendable {
    /// The nominal sample rate of the figures a window gives (`CurrentFigures`): 100 kHz, a sample per 10 µs
    /// as a PPK2's, so a window's `samples` count its length.
    package static let samplesPerSecond = 100_000

    /// One train of connection events: `charge` µC at `first + k·period` for k ≥ 0, before `end`.
    struct Train {
        var first: Int64
        var period: Int64
        var charge: Double
        var end: Int64?
    }

    struct State {
        var poweredSince: Int64?
        var poweredSpans: [(start: Int64, end: Int64)] = []
        var impulses: [(at: Int64, charge: Double)] = []
        var trains: [Train] = []
        var openTrains: [UInt64: Int] = [:]
    }

    package let model: SimulatedCurrentModel
    /// The world's clock, the one it is written and read on.
    package let clock: LoopClock
    private let origin: ContinuousClock.Instant
    let state: Mutex<State>

    /// A trace from now on `clock`, powered or not.
    package init(model: SimulatedCurrentModel, clock: LoopClock, powered: Bool) {
        self.model = model
        self.clock = clock
        origin = clock.now
        state = Mutex(State(poweredSince: powered ? 0 : nil))
    }

    /// Nanoseconds from the trace's start to `instant` (negative before it).
    func offset(_ instant: ContinuousClock.Instant) -> Int64 {
        Self.nanoseconds(origin.duration(to: instant))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Power comes on at `instant` (a boot's charge is added apart, by `add`).
    package func powerOn(at instant: ContinuousClock.Instant) {
        let now = offset(instant)
        state.withLock { state in
            if state.poweredSince == nil { state.poweredSince = now }
        }
    }

    /// Power goes at `instant`: the sleep current and every connection-event train stop.
    package func powerOff(at instant: ContinuousClock.Instant) {
        let now = offset(instant)
        state.withLock { state in
            if let since = state.poweredSince { state.poweredSpans.append((since, now)) }
            state.poweredSince = nil
            for index in state.openTrains.values { state.trains[index].end = now }
            state.openTrains.removeAll()
        }
    }

    /// `microcoulombs` drawn at `instant`.
    package func add(_ microcoulombs: Double, at instant: ContinuousClock.Instant) {
        guard microcoulombs > 0 else { return }
        let now = offset(instant)
        state.withLock { $0.impulses.append((now, microcoulombs)) }
    }

    /// Link `link`'s connection events from `anchor`, every `interval`, from now on (ending the train the link
    /// had before, at `anchor`).
    package func connectionEvents(of link: UInt64, from anchor: ContinuousClock.Instant, every interval: Duration) {
        let first = offset(anchor), period = max(1, Self.nanoseconds(interval))
        let charge = model.connectionEventMicrocoulombs
        state.withLock { state in
            if let index = state.openTrains[link] { state.trains[index].end = first }
            state.trains.append(Train(first: first, period: period, charge: charge, end: nil))
            state.openTrains[link] = state.trains.count - 1
        }
    }

    /// Link `link` ends for this accessory at `instant`: no more connection events.
    package func linkEnded(_ link: UInt64, at instant: ContinuousClock.Instant) {
        let now = offset(instant)
        state.withLock { state in
            if let index = state.openTrains.removeValue(forKey: link) { state.trains[index].end = now }
        }
    }

    /// The charge drawn in [`start`, `end`), in µC.
    package func charge(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let a = offset(start), b = offset(end)
        guard b > a else { return 0 }
        let sleep = model.sleepMicroamperes
        return state.withLock { state in
            var poweredNanoseconds: Int64 = 0
            for span in state.poweredSpans { poweredNanoseconds += overlap(span.start, span.end, a, b) }
            if let since = state.poweredSince { poweredNanoseconds += overlap(since, b, a, b) }
            var charge = sleep * Double(poweredNanoseconds) / 1e9
            for impulse in state.impulses where impulse.at >= a && impulse.at < b { charge += impulse.charge }
            for train in state.trains {
                let stop = min(b, train.end ?? b)
                guard stop > a else { continue } // a train that ended before the window
                charge += train.charge * Double(Self.events(train, before: stop) - Self.events(train, before: a))
            }
            return charge
        }
    }

    /// The figures of [`start`, `end`) from a supply of `supplyVolts`: the exact charge, on the nominal
    /// 100 kHz sample grid.
    package func figures(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant, supplyVolts: Double) -> CurrentFigures {
        let samples = Int(max(0, offset(end) - offset(start)) / (1_000_000_000 / Int64(Self.samplesPerSecond)))
        let charge = charge(from: start, to: end)
        return CurrentFigures(sum: charge * Double(Self.samplesPerSecond), samples: samples, samplesPerSecond: Self.samplesPerSecond,
                              supplyVolts: supplyVolts)
    }

    /// How many of the train's events fall before `t`: the k ≥ 0 with first + k·period < t.
    static func events(_ train: Train, before t: Int64) -> Int64 {
        guard t > train.first else { return 0 }
        return (t - train.first - 1) / train.period + 1
    }
}

private func overlap(_ start: Int64, _ end: Int64, _ a: Int64, _ b: Int64) -> Int64 {
    max(0, min(end, b) - max(start, a))
}
