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
        /// ACL packets this side's host sent and its peer has not yet acknowledged, oldest first; the first
        /// may be partly on the air (`sent`).
        var queue: [ACLDataPacket] = []
        /// Octets of `queue[0]` already handed to the air in earlier PDUs.
        var sent = 0
        /// connMaxTxOctets/connMaxTxTime: the longest PDU this side wants to send (its host's LE Set Data
        /// Length, else its controller's suggested default; Core v5.4 Vol 6 Part B §4.5.10).
        var wantedDataLength = DataLength.initial
        /// What this side may send, before the LE Coded adjustment: min(connMaxTx, the peer's connMaxRx) as
        /// the last Data Length Update procedure settled it (§4.5.10); 27 octets, 328 µs until then.
        var dataLength = DataLength.initial
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
        /// `phy`: an LE Set PHY whose procedure (LL_PHY_REQ, LL_PHY_RSP, LL_PHY_UPDATE_IND) ends at the next
        /// event, with the initiator's acceptable PHYs as TX_PHYS/RX_PHYS bits. `dataLength`: LL_LENGTH_REQ and
        /// LL_LENGTH_RSP (§5.1.9).
        enum Kind { case features, version, phy(transmitter: UInt8, receiver: UInt8, coding: CodedScheme), dataLength }
        let initiator: LEConnectionComplete.Role
        let kind: Kind
        var sentAt: Int?
    }

    let id: UInt64
    var central: End
    var peripheral: End
    /// Connection parameters in HCI units (connInterval, connPeripheralLatency, connSupervisionTimeout), as the
    /// connection's creation or its last Connection Update set them (`adopt`).
    private(set) var intervalUnits: UInt16 = 0
    private(set) var latency: UInt16 = 0
    private(set) var timeoutUnits: UInt16 = 0
    /// Scaled durations of one interval and of the supervision timeout.
    private(set) var interval = Duration.zero
    private(set) var supervisionTimeout = Duration.zero
    /// The instant of connection event 0 (re-anchored at each parameter update, with `anchorCounter`).
    var anchor: ContinuousClock.Instant
    var anchorCounter = 0
    /// The last connection event processed.
    var lastEvent = -1
    var termination: Termination?
    var update: Update?
    var requests: [Request] = []
    /// The PHYs in use, the central's transmitter and receiver (the peripheral's receiver and transmitter).
    var centralPHY: (transmitter: RadioPHY, receiver: RadioPHY) = (.le1M, .le1M)
    /// The coding on LE Coded, as the last LE Set PHY's PHY_options asked (S=8 without a preference).
    var coding = CodedScheme.s8
    /// The exchange of PDUs under way in the current connection event, if any.
    var exchange: Exchange?
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
        self.anchor = anchor
        adopt(parameters, timing: timing)
    }

    /// Takes the connection parameters in force from now on: the interval (the lowest the parameters allow, as
    /// this air's controllers choose), the peripheral latency and the supervision timeout, in HCI units and as
    /// scaled durations.
    func adopt(_ parameters: ConnectionParameters, timing: SimulationTiming) {
        intervalUnits = parameters.intervalMin
        latency = parameters.latency
        timeoutUnits = parameters.supervisionTimeout
        interval = timing.scaled(.connectionIntervalUnits(parameters.intervalMin))
        supervisionTimeout = timing.scaled(.supervisionUnits(parameters.supervisionTimeout))
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
