import HCIPackets

/// The state of one powered simulated controller: what an HCI Reset clears. Owned by its air and touched
/// only on the air's loop.
final class ControllerModel {
    /// Legacy advertising as the host configured it (Core v5.4 Vol 4 Part E §7.8.5–§7.8.9).
    struct Advertising {
        var parameters = LESetAdvertisingParameters()
        var data: [UInt8] = []
        var scanResponse: [UInt8] = []
        var enabled = false
        /// The timer of the next advertising event.
        var timer: UInt64?
        /// When high-duty-cycle directed advertising started (it ends after 1.28 s).
        var started: ContinuousClock.Instant?
        /// The advertising set, when the host configured advertising through the extended commands
        /// (then `parameters` holds the legacy PDU type the set's properties name).
        var set: AdvertisingSet?
    }

    /// The one advertising set (§7.8.53-§7.8.56) a controller with LE Extended Advertising offers; it sends
    /// legacy PDUs only.
    struct AdvertisingSet {
        let handle: UInt8
        var scanRequestNotification = false
        /// LE Set Advertising Set Random Address; the factory static address of a controller that has one.
        var randomAddress: BDAddress?
        /// Max_Extended_Advertising_Events of the enable (0: no limit), and the events sent since.
        var maximumEvents: UInt8 = 0
        var completedEvents: Int = 0
        /// The timer that ends the enable's Duration.
        var durationTimer: UInt64?
    }

    /// Scanning as the host configured it (§7.8.10, §7.8.11).
    struct Scanning {
        var parameters = LESetScanParameters(type: .passive, interval: 0x0010, window: 0x0010)
        var enabled = false
        var filterDuplicates = false
        /// Advertisers already reported while filtering duplicates; cleared when scanning stops.
        var seen = Set<SeenAdvertiser>()
    }

    /// An advertiser (and report kind) for the duplicate filter.
    struct SeenAdvertiser: Hashable {
        let address: BDAddress
        let addressType: AddressType
        let scanResponse: Bool
    }

    /// A pending LE Create Connection.
    struct Initiation {
        let command: LECreateConnection
        let issued: ContinuousClock.Instant
    }

    /// The facade this model belongs to (weak: the world owns the facades, the air only the models).
    weak var controller: SimulatedController?
    let name: String
    let configuration: SimulatedWorldDescription.Controller
    /// Bumped by every Reset, so a timer armed before it can tell it is stale.
    private(set) var epoch: UInt64 = 0

    /// The transport session whose bytes `framer` holds, and the framer of what the host writes.
    var session: UInt64 = 0
    var framer = H4Framer(maximumDataLength: 65_535)

    var eventMask = ControllerModel.defaultEventMask
    var leEventMask = ControllerModel.defaultLEEventMask
    var randomAddress: BDAddress?
    var advertising = Advertising()
    var scanning = Scanning()
    var initiation: Initiation?
    /// Open connections: handle → link ID.
    var links: [UInt16: UInt64] = [:]
    /// LE ACL buffers holding packets the host sent and the air has not yet delivered.
    var aclBuffersInUse = 0
    /// The data length new links start the Data Length Update procedure with (LE Write Suggested Default
    /// Data Length, Core v5.4 Vol 4 Part E §7.8.35; 27 octets, 328 µs after Reset).
    var suggestedDataLength = DataLength.initial
    /// The host's PHY preferences (LE Set Default PHY, §7.8.48) as TX_PHYS/RX_PHYS bits of PHYs this
    /// controller supports: every one it supports until the host says otherwise.
    var defaultPHYs: (transmit: UInt8, receive: UInt8) = (0, 0)

    /// Set_Event_Mask's default after Reset (§7.3.1): bits 0–44.
    static let defaultEventMask: UInt64 = 0x0000_1FFF_FFFF_FFFF
    /// LE_Set_Event_Mask's default after Reset (§7.8.1): bits 0–4.
    static let defaultLEEventMask: UInt64 = 0x1F

    init(controller: SimulatedController) {
        self.controller = controller
        self.name = controller.name
        self.configuration = controller.configuration
        resetState()
    }

    /// Back to the power-on state (timers and links are the air's to clean up first).
    func resetState() {
        epoch &+= 1
        eventMask = Self.defaultEventMask
        leEventMask = Self.defaultLEEventMask
        randomAddress = configuration.addressType.isRandom ? configuration.address : nil
        advertising = Advertising()
        scanning = Scanning()
        initiation = nil
        links.removeAll()
        aclBuffersInUse = 0
        suggestedDataLength = .initial
        defaultPHYs = (configuration.phyBits, configuration.phyBits)
    }

    /// BD_ADDR: the public address, or none (zero) for a controller with only a static random address.
    var publicAddress: BDAddress { configuration.addressType.isRandom ? .zero : configuration.address }

    /// The address and type this controller transmits with for an Own_Address_Type (RPAs resolve to the
    /// identity: the resolving list is always empty here). Nil when a random address is needed and unset.
    /// A controller without a public address (random identity) transmits with its random address
    /// whichever type the host names.
    func ownAddress(_ type: AddressType) -> (address: BDAddress, type: AddressType)? {
        switch type {
        case .public, .publicIdentity:
            return configuration.addressType.isRandom ? randomAddress.map { ($0, .random) } : (configuration.address, .public)
        case .random, .randomIdentity:
            return randomAddress.map { ($0, .random) }
        }
    }

    /// Whether the host unmasked an event (Command Complete, Command Status and Number Of Completed
    /// Packets cannot be masked).
    func wants(_ event: HCIEvent) -> Bool {
        switch event {
        case .commandComplete, .commandStatus, .numberOfCompletedPackets: return true
        case .le(let le):
            guard eventMask & (1 << 61) != 0 else { return false }
            let subevent = le.encodedSubevent
            return subevent >= 1 && subevent <= 64 && leEventMask & (1 << UInt64(subevent - 1)) != 0
        case .disconnectionComplete: return eventMask & (1 << 4) != 0
        case .encryptionChange: return eventMask & (1 << 7) != 0
        case .readRemoteVersionComplete: return eventMask & (1 << 11) != 0
        case .hardwareError: return eventMask & (1 << 15) != 0
        case .dataBufferOverflow: return eventMask & (1 << 25) != 0
        case .encryptionKeyRefreshComplete: return eventMask & (1 << 47) != 0
        case .unknown(let code, _): return code >= 1 && code <= 64 && eventMask & (1 << UInt64(code - 1)) != 0
        }
    }

    /// Whether the host unmasked LE Enhanced Connection Complete [v1] (then it is sent instead of LE
    /// Connection Complete, §7.7.65.10).
    var wantsEnhancedConnectionComplete: Bool { leEventMask & (1 << 9) != 0 }
}
