// The ATT server half of one connection.

/// The Attribute Protocol server for ONE connection (Core v5.4 Vol 3 Part F §3.4,
/// over the GATT database of Vol 3 Part G): pure and synchronous, bytes in, bytes out.
///
/// ```swift
/// var server = ATTServer(database: database)
/// let reply = server.reply(to: pdu)          // every PDU from the ATT channel
/// if let delay = reply.delay { try await Task.sleep(for: delay) }
/// if let response = reply.response { try await channel.send(response) }
/// ```
///
/// It keeps the per-connection state: the negotiated ATT_MTU, the prepared-write
/// queue, the CCCD of every characteristic (so `subscriptions` says who wants
/// notifications), the indication awaiting confirmation, and the link's `security`.
/// Values live in the shared `GATTDatabase`. Malformed PDUs are answered with
/// Invalid PDU; nothing traps. Keep one value per connection, owned by one actor.
public struct ATTServer: Sendable {
    /// The minimum and default ATT_MTU on LE (Vol 3 Part F §3.2.8).
    public static let defaultMTU = 23
    /// The largest ATT_MTU (Vol 3 Part F §3.2.9 allows values of 512 octets, so 517 fits any PDU).
    public static let maximumSupportedMTU = 517

    /// The database served; `serve(_:)` changes it (a server whose database changed indicates Service Changed).
    public private(set) var database: GATTDatabase
    /// The receive MTU this server offers in Exchange MTU (at least 23).
    public let maximumMTU: Int
    /// The ATT_MTU in use: 23 until an Exchange MTU, then min(client, ours).
    public internal(set) var mtu: Int = ATTServer.defaultMTU
    /// The link's security, checked against attribute permissions.
    public var security: ATTSecurity = []
    /// A delay applied to every response (a server that answers slowly); nil for none.
    public var responseDelay: Duration?
    /// Called with every decoded request and command before it is handled: it may
    /// drop, delay or replace the response (see `Interception`); nil handles all as usual.
    public var interceptor: Interceptor?
    /// The most Prepare Write Requests queued before Prepare Queue Full.
    public var maximumPreparedWrites: Int = 128
    /// Whether an indication was built and its confirmation has not arrived
    /// (Vol 3 Part F §3.4.7.2: one at a time).
    public internal(set) var isAwaitingConfirmation = false

    /// CCCD values by CCCD handle.
    var clientConfigurations: [UInt16: GATTClientConfiguration] = [:]
    /// Queued Prepare Write Requests, in order.
    var preparedWrites: [(handle: UInt16, offset: Int, value: [UInt8])] = []

    public init(database: GATTDatabase, maximumMTU: Int = ATTServer.maximumSupportedMTU) {
        self.database = database
        self.maximumMTU = min(0xFFFF, max(Self.defaultMTU, maximumMTU))
    }

    /// Serves `newDatabase` from now on (Core v5.4 Vol 3 Part G §2.5.2: the database changed, and the server
    /// indicates Service Changed for the range that did). The client's CCCD values stay for handles that are
    /// still Client Characteristic Configuration descriptors; prepared writes are dropped.
    public mutating func serve(_ newDatabase: GATTDatabase) {
        database = newDatabase
        clientConfigurations = clientConfigurations.filter { cccd, _ in
            if case .clientConfiguration? = newDatabase.attribute(cccd)?.role { return true }
            return false
        }
        preparedWrites = []
    }

    /// Sets the ATT_MTU when the exchange happened on this bearer's other role (our
    /// own client sent Exchange MTU); clamped to 23…`maximumMTU`.
    public mutating func updateMTU(_ mtu: Int) {
        self.mtu = min(maximumMTU, max(Self.defaultMTU, mtu))
    }

    /// Handles one PDU and returns the response's bytes, or nil when none is due.
    /// Ignores `Reply.delay` and events; use `reply(to:)` to honour them.
    public mutating func handle(_ pdu: [UInt8]) -> [UInt8]? {
        reply(to: pdu).response
    }

    // MARK: Subscriptions

    /// What the client enabled, by characteristic value handle (only non-empty entries).
    public var subscriptions: [UInt16: GATTClientConfiguration] {
        var result: [UInt16: GATTClientConfiguration] = [:]
        for (cccd, configuration) in clientConfigurations where !configuration.isEmpty {
            guard let attribute = database.attribute(cccd),
                  case .clientConfiguration(let valueHandle, _) = attribute.role else { continue }
            result[valueHandle] = configuration
        }
        return result
    }

    /// The CCCD value the client wrote for the characteristic whose value is at `valueHandle`.
    public func configuration(ofValue valueHandle: UInt16) -> GATTClientConfiguration {
        guard let cccd = database.clientConfigurationHandle(ofValue: valueHandle) else { return [] }
        return clientConfigurations[cccd] ?? []
    }

    /// Whether the client enabled notifications or indications for the value at `valueHandle`.
    public func isSubscribed(_ valueHandle: UInt16) -> Bool {
        !configuration(ofValue: valueHandle).isEmpty
    }

    // MARK: Server-initiated PDUs

    /// A Handle Value Notification (§3.4.7.1) of `value`, cut to ATT_MTU – 3 octets.
    public func notification(handle: UInt16, value: [UInt8]) -> [UInt8] {
        ATTPDU.handleValueNotification(handle: handle, value: Array(value.prefix(mtu - 3))).encoded()
    }

    /// A Handle Value Indication (§3.4.7.2) of `value`, cut to ATT_MTU – 3 octets;
    /// sets `isAwaitingConfirmation` until the client's confirmation arrives.
    public mutating func indication(handle: UInt16, value: [UInt8]) -> [UInt8] {
        isAwaitingConfirmation = true
        return ATTPDU.handleValueIndication(handle: handle, value: Array(value.prefix(mtu - 3))).encoded()
    }

    /// Forgets an indication that will never be confirmed (e.g. its timer ran out).
    public mutating func cancelIndication() { isAwaitingConfirmation = false }
}
