import HCIPackets
import EventLoops
import GATT
import Support
import Synchronization

/// The run's record of what the central did, shared with the ATT interceptor of every link (which runs on
/// the host's loop): events are appended under a lock with the time they happened, and the interceptor
/// asks here whether the plan has stopped answering a link. Every time is read on `clock`, the device's
/// host's (a simulated bench's virtual time, or real time), and whoever waits for the next event awaits it
/// here (`waitForEvent(after:until:)`) rather than looking again and again.
final class ActivityLog: Sendable {
    let clock: LoopClock
    let started: ContinuousClock.Instant
    private let state: Mutex<State>
    /// Called with each event as it is recorded (the command prints them).
    let observer: @Sendable (CentralEvent) -> Void

    struct State {
        var database: GATTDatabase
        var events: [CentralEvent] = []
        /// Links whose ATT requests get no response.
        var silenced: Set<UInt16> = []
    }
    /// Signalled once per event recorded, so its count follows the events' (what `waitForEvent` awaits).
    private let recorded = ChangeSignal()

    init(clock: LoopClock, database: GATTDatabase, observer: @escaping @Sendable (CentralEvent) -> Void) {
        self.clock = clock
        self.state = Mutex(State(database: database))
        self.started = clock.now
        self.observer = observer
    }

    /// Milliseconds from the start to `instant` (now when nil).
    func milliseconds(at instant: ContinuousClock.Instant? = nil) -> Double {
        started.duration(to: instant ?? clock.now) / .milliseconds(1)
    }

    /// Records an event now (or at `instant`) and returns its time in milliseconds.
    @discardableResult
    func record(_ kind: CentralEvent.Kind, handle: UInt16? = nil, _ detail: String, at instant: ContinuousClock.Instant? = nil,
                range: ClosedRange<UInt16>? = nil, characteristic: BluetoothUUID? = nil) -> Double {
        let event = CentralEvent(milliseconds: milliseconds(at: instant), kind: kind, handle: handle, detail: detail, range: range,
                                 characteristic: characteristic)
        state.withLock { $0.events.append(event) }
        observer(event)
        recorded.signal()
        return event.milliseconds
    }

    /// How many events have been recorded: what `waitForEvent(after:until:)` counts from.
    var count: Int { state.withLock { $0.events.count } }

    /// Returns once more than `count` events have been recorded, once `deadline` (an instant of `clock`)
    /// has come, or once the task is cancelled, whichever is first.
    func waitForEvent(after count: Int, until deadline: ContinuousClock.Instant? = nil) async {
        guard let deadline else { return await recorded.wait(after: UInt64(count)) }
        await recorded.wait(after: UInt64(count), until: deadline, clock: clock)
    }

    /// Every event so far, in time order.
    var events: [CentralEvent] {
        state.withLock { $0.events }.sorted { $0.milliseconds < $1.milliseconds }
    }

    /// The first event of `kind` about `characteristic` at or after `milliseconds` from the start.
    func firstEvent(_ kind: CentralEvent.Kind, of characteristic: BluetoothUUID, from milliseconds: Double) -> CentralEvent? {
        let text = characteristic.description
        return events.first { $0.kind == kind && $0.characteristic == text && $0.milliseconds >= milliseconds }
    }

    func silence(_ handle: UInt16, _ silent: Bool) {
        state.withLock { if silent { $0.silenced.insert(handle) } else { $0.silenced.remove(handle) } }
    }

    /// The database served now (a `service_changed` step changes it), which names the handles requests use.
    var database: GATTDatabase {
        get { state.withLock { $0.database } }
        set { state.withLock { $0.database = newValue } }
    }

    /// The interceptor for the link `handle`: records each request the central makes and drops it while
    /// the plan has silenced the link.
    func interceptor(handle: UInt16) -> ATTServer.Interceptor {
        { [self] pdu in
            let (silent, database) = state.withLock { ($0.silenced.contains(handle), $0.database) }
            guard let request = ATTRequestKind.describe(pdu, in: database) else { return nil }
            record(silent ? .unanswered : request.kind, handle: handle, silent ? "no answer to: \(request.detail)" : request.detail,
                   range: request.range, characteristic: request.characteristic)
            return silent ? .drop : nil
        }
    }
}
