import HCIPackets
import HostCore

/// What `hil accessory` does to the phone, step by step: each step waits for its trigger, does its action,
/// and may state what the app is expected to do next (`docs/accessory-plans.md`).
package struct FaultPlan: Sendable {
    /// The plan's name (for the report); the file's name when it has none.
    package var name: String
    package var steps: [Step]

    /// No steps: the accessory serves until stopped (`hil accessory` without --plan).
    package static let serveUntilStopped = FaultPlan(name: "serve", steps: [])

    /// One step: when, what, and what the app should do about it.
    package struct Step: Sendable {
        /// `"name"`, or `step N: ACTION`.
        package var name: String
        package var trigger: Trigger
        package var action: Action
        /// Stay away this long after the fault, then advertise again; nil advertises again at once.
        package var advertiseAfterMilliseconds: Int?
        package var expectations: [Expectation]
    }

    /// When a step runs. Steps run in order: a step's trigger is awaited only once the step before it ran.
    package enum Trigger: Sendable, Hashable {
        /// `at_ms`: this long after the accessory started advertising.
        case atTime(milliseconds: Int)
        /// `after_connect_ms` (and `after_connections`): this long after a central connected, once at least
        /// `connections` connections have been made in the run (1 unless given).
        case afterConnect(milliseconds: Int, connections: Int)
        /// `after_read`, `after_write`, `after_subscribe`: as soon as the central reads, writes or subscribes to
        /// (enables notifications or indications of) this characteristic, after the step before ran.
        case afterRequest(CentralRequest, characteristic: BluetoothUUID)
    }

    /// What a central does to a characteristic that can trigger a step.
    package enum CentralRequest: String, Sendable, Hashable, CaseIterable {
        case read, write, subscribe

        /// The trigger's key in a plan: `after_read`, `after_write`, `after_subscribe`.
        package var key: String { "after_\(rawValue)" }
        /// The kind of event the activity log records for it.
        var eventKind: CentralEvent.Kind {
            switch self {
            case .read: .read
            case .write: .write
            case .subscribe: .subscribe
            }
        }
    }

    /// What a step does.
    package enum Action: Sendable, Hashable {
        /// `disconnect`: HCI Disconnect with this reason (the central sees it as the link's end).
        case disconnect(reason: HCIStatus)
        /// `vanish`: stop advertising and drop the link without a Disconnect (an HCI Reset of our
        /// controller): to the phone, the accessory lost power — its supervision timer runs out.
        case vanish
        /// `stop_answering_att`: requests on the link get no response (the central's 30 s ATT transaction
        /// timeout runs out) until the link ends; later links are answered.
        case stopAnsweringATT
        /// `service_changed`: the GATT database changes (a service is added after the profile's own; the next
        /// such step removes it again) and a Service Changed indication (Core v5.4 Vol 3 Part G §7.1) tells
        /// the central which handles changed, if it enabled those indications. The link stays up.
        case serviceChanged
        /// `notify_flood`: notifications of the characteristic, back to back for this long, as fast as the link
        /// takes them (the controller's ACL buffer credits pace them): the link's maximum rate. The value is a
        /// counter filling the ATT_MTU. The central must have subscribed to notifications of it.
        case notifyFlood(characteristic: BluetoothUUID, milliseconds: Int)
        /// `update_parameters`: asks the central for these connection parameters (an L2CAP Connection Parameter
        /// Update Request, Core v5.4 Vol 3 Part A §4.20) and waits up to 5 s for the LE Connection Update Complete.
        case updateParameters(ConnectionParameters)
        /// `rotate_address`: advertise with a new resolvable private address now (the profile's address is
        /// `resolvable-private`); with a link up, the next advertising has the new one.
        case rotateAddress
        /// `require_pairing`: a Security Request to the central (Core v5.4 Vol 3 Part H §3.6.7), then up to 30 s for
        /// its pairing (the profile's `security` says how the accessory pairs).
        case requirePairing
        /// `refuse_pairing`: from now on a Pairing Request is answered Pairing Failed, 0x05 Pairing Not Supported
        /// (encryption with an existing bond still works).
        case refusePairing
        /// `forget_bond`: the accessory deletes its bond with the central (the one connected, else the last):
        /// the central's next encryption with its key fails (the LTK request gets a negative reply, 0x06 PIN or
        /// Key Missing on its side).
        case forgetBond

        /// Whether the action needs a link to act on (it cannot run at a time when none may be up).
        package var actsOnLink: Bool {
            switch self {
            case .stopAnsweringATT, .notifyFlood, .updateParameters, .requirePairing: true
            case .disconnect, .vanish, .serviceChanged, .rotateAddress, .refusePairing, .forgetBond: false
            }
        }

        /// Whether the action ends the link (so the central has something to reconnect after).
        package var endsLink: Bool {
            switch self {
            case .disconnect, .vanish, .stopAnsweringATT: true
            case .serviceChanged, .notifyFlood, .updateParameters, .rotateAddress, .requirePairing, .refusePairing, .forgetBond: false
            }
        }

        /// The plan file's word for it.
        package var word: String {
            switch self {
            case .disconnect: "disconnect"
            case .vanish: "vanish"
            case .stopAnsweringATT: "stop_answering_att"
            case .serviceChanged: "service_changed"
            case .notifyFlood: "notify_flood"
            case .updateParameters: "update_parameters"
            case .rotateAddress: "rotate_address"
            case .requirePairing: "require_pairing"
            case .refusePairing: "refuse_pairing"
            case .forgetBond: "forget_bond"
            }
        }
    }

    /// What the app should do after a step, checked and reported as one test case.
    package enum Expectation: Sendable, Hashable {
        /// `reconnect_within_ms`: the central connects again within this long of the accessory advertising again.
        case reconnectWithin(milliseconds: Int)
        /// `rediscover_after_service_changed` (with `rediscover_within_ms`, default 10 s): after a Service Changed
        /// indication, the central discovers services or characteristics again in the range that changed, within
        /// this long of confirming it (or of its next connection, when no central was connected at the change).
        case rediscoverAfterServiceChanged(withinMilliseconds: Int)
        /// `accept_parameters`: the central accepts an `update_parameters` request (the connection update completes
        /// with parameters in the requested range) within the 5 s the step waits.
        case acceptParameters
        /// `pair_within_ms` (`require_pairing`): the central pairs within this long of the Security Request.
        case pairWithin(milliseconds: Int)
        /// `reencrypt_with_bond` (with `reencrypt_within_ms`, default 5 s): the central's next connection after the
        /// step is encrypted with the bond — no new pairing — within this long of connecting.
        case reencryptWithBond(withinMilliseconds: Int)

        /// The default time a reconnected central has to encrypt with its bond.
        package static let defaultReencryptionMilliseconds = 5_000

        /// How long an `update_parameters` step waits for the central.
        package static let parameterUpdateMilliseconds = 5_000

        /// The default time a central has to re-discover after Service Changed.
        package static let defaultRediscoveryMilliseconds = 10_000

        /// The key it is written with.
        package var key: String {
            switch self {
            case .reconnectWithin: "reconnect_within_ms"
            case .rediscoverAfterServiceChanged: "rediscover_after_service_changed"
            case .acceptParameters: "accept_parameters"
            case .pairWithin: "pair_within_ms"
            case .reencryptWithBond: "reencrypt_with_bond"
            }
        }

        /// Its limit in milliseconds.
        package var limit: Int {
            switch self {
            case .reconnectWithin(let milliseconds), .rediscoverAfterServiceChanged(let milliseconds), .pairWithin(let milliseconds),
                 .reencryptWithBond(let milliseconds): milliseconds
            case .acceptParameters: Self.parameterUpdateMilliseconds
            }
        }
    }
}
