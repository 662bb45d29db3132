import HCIPackets

/// One LE connection on the air, shared by its two controllers. Owned by the air; touched only on its loop.
///
/// Connection events are computed, not ticked: event *n* is at `anchor + n × interval`, and the air arms a
/// timer only for the next event that has something to carry (data, a terminate, an update instant, a
/// procedure answer), so an idle link costs nothing. Encryption (`encryption`, `longTermKey`) is the
/// link's: it ends with the link.
final class SimulatedLink {
    /// One side of the link.
    struct End {
        /// The controller's name.
        let controller: String
        let handle: UInt16
        /// The address (and type) this side transmits with, which its peer reports.
        let address: BDAddress
        let addressType: AddressType
        /// ACL packets this side's host sent, waiting for the next connection event.
        var queue: [ACLDataPacket] = []
        /// This side's host was told the link ended (or its controller forgot it): nothing more goes to it.
        var ended = false
    }

    /// A Disconnect in progress: LL_TERMINATE_IND goes out at the next event; the initiator's host hears
    /// of it when the peer has acknowledged, one event later.
    struct Termination {
        let initiator: LEConnectionComplete.Role
        let reason: HCIStatus
        /// The event at which the peer received LL_TERMINATE_IND.
        var sentAt: Int?
    }

    /// An LE Connection Update waiting for its instant.
    struct Update {
        let initiator: LEConnectionComplete.Role
        let parameters: ConnectionParameters
        var instant: Int?
    }

    /// A remote-information procedure (features or version) waiting for the peer's answer.
    struct Request {
        /// `phy`: an LE Set PHY whose procedure (LL_PHY_REQ, LL_PHY_UPDATE_IND) ends at the next event.
        enum Kind { case features, version, phy(transmitter: UInt8, receiver: UInt8) }
        let initiator: LEConnectionComplete.Role
        let kind: Kind
        var sentAt: Int?
    }

    let id: UInt64
    var central: End
    var peripheral: End
    /// Connection parameters in HCI units.
    var intervalUnits: UInt16
    var latency: UInt16
    var timeoutUnits: UInt16
    /// Scaled durations of one interval and of the supervision timeout.
    var interval: Duration
    var supervisionTimeout: Duration
    /// The instant of connection event 0 (re-anchored at each parameter update, with `anchorCounter`).
    var anchor: ContinuousClock.Instant
    var anchorCounter = 0
    /// The last connection event processed.
    var lastEvent = -1
    var termination: Termination?
    var update: Update?
    var requests: [Request] = []
    /// The PHYs in use, the central's transmitter and receiver (1: LE 1M, 2: LE 2M, 3: LE Coded).
    var centralPHY: (transmitter: UInt8, receiver: UInt8) = (1, 1)
    /// The LE encryption start or key refresh under way.
    var encryption: Encryption?
    /// The Long Term Key the link is encrypted with; nil while it is not encrypted.
    var longTermKey: [UInt8]?
    var eventTimer: UInt64?
    /// Armed when one side is gone: the other side's supervision timeout.
    var supervisionTimer: UInt64?
    /// The side whose controller lost power or was reset.
    var lost: LEConnectionComplete.Role?

    init(id: UInt64, central: End, peripheral: End, parameters: ConnectionParameters, timing: SimulationTiming,
         anchor: ContinuousClock.Instant) {
        self.id = id
        self.central = central
        self.peripheral = peripheral
        self.intervalUnits = parameters.intervalMin
        self.latency = parameters.latency
        self.timeoutUnits = parameters.supervisionTimeout
        self.interval = timing.scaled(.connectionIntervalUnits(parameters.intervalMin))
        self.supervisionTimeout = timing.scaled(.supervisionUnits(parameters.supervisionTimeout))
        self.anchor = anchor
    }

    subscript(role: LEConnectionComplete.Role) -> End {
        get { role == .central ? central : peripheral }
        set { if role == .central { central = newValue } else { peripheral = newValue } }
    }

    /// Whether the link is encrypted (Core v5.4 Vol 6 Part B §5.1.3).
    var isEncrypted: Bool { longTermKey != nil }

    /// Whether ACL data may ride the next event: not while encryption is being started (§5.1.3.1).
    var dataFlows: Bool { encryption?.pausesData != true }

    /// Whether an event has anything to carry.
    var hasWork: Bool {
        (dataFlows && (!central.queue.isEmpty || !peripheral.queue.isEmpty)) || termination != nil || update != nil
            || !requests.isEmpty || encryption?.needsEvent == true
    }

    /// The first connection event after `lastEvent` at or after `instant`.
    func nextEvent(atOrAfter instant: ContinuousClock.Instant) -> (counter: Int, at: ContinuousClock.Instant) {
        let minimum = lastEvent + 1
        guard interval > .zero else { return (minimum, instant) }
        let elapsed = anchor.duration(to: instant)
        var n = elapsed <= .zero ? 0 : Int((elapsed / interval).rounded(.up))
        n = max(n + anchorCounter, minimum)
        return (n, anchor.advanced(by: interval * (n - anchorCounter)))
    }

    /// The role of the side on `controller` with `handle`, if it is this link's.
    func role(of controller: String, handle: UInt16) -> LEConnectionComplete.Role? {
        if central.controller == controller && central.handle == handle { return .central }
        if peripheral.controller == controller && peripheral.handle == handle { return .peripheral }
        return nil
    }
}
