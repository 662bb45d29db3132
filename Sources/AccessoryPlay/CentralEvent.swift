import HCIPackets

/// One thing the central (the app under test) or the accessory did, at a time from the start of the run.
package struct CentralEvent: Sendable, Hashable, Codable {
    /// Milliseconds since the accessory started.
    package var milliseconds: Double
    package var kind: Kind
    /// The link's handle, for link events.
    package var handle: UInt16?
    /// What happened, in words: `connected C0:…:01 (interval 30 ms, latency 0, timeout 4200 ms)`, `read 2A37`.
    package var detail: String
    /// A discovery request's attribute handle range (Starting_Handle, Ending_Handle).
    package var startHandle: UInt16?
    package var endHandle: UInt16?
    /// The characteristic a read, write or (un)subscription is of, as its UUID's text (`2A37`).
    package var characteristic: String?

    package init(milliseconds: Double, kind: Kind, handle: UInt16? = nil, detail: String, range: ClosedRange<UInt16>? = nil,
                characteristic: BluetoothUUID? = nil) {
        self.milliseconds = milliseconds
        self.kind = kind
        self.handle = handle
        self.detail = detail
        self.startHandle = range?.lowerBound
        self.endHandle = range?.upperBound
        self.characteristic = characteristic?.description
    }

    /// The kinds of events the report counts.
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The accessory advertises (at the start, after a fault).
        case advertising
        /// A central began an active scan (its first scan request; `AccessoryPlayer.Result.scans` has each scan).
        case scan
        /// The central connected.
        case connected
        /// The link ended (the reason in `detail`).
        case disconnected
        /// A step of the plan ran.
        case fault
        /// The database changed, and whether the central was told (Service Changed).
        case serviceChanged = "service-changed"
        /// What the accessory sent on a plan's behalf (a notification flood) and what came of a request it made
        /// (a connection parameter update).
        case notifications, parameters
        /// Pairing (requested, done, failed, refused), bonds forgotten, and links encrypted.
        case security
        /// The central's ATT requests, by what they are for.
        case mtu, discovery, read, write, subscribe, unsubscribe
        /// An ATT request the plan left unanswered.
        case unanswered
        /// Any other ATT request or command.
        case att
        /// The MCUmgr SMP server of a profile's `mcumgr`: its slots, its resets and MCUboot's boots.
        case update
    }
}
