import HCIPackets
import Roles

/// What an accessory's link layer must reach, as its rig declares it (`link`); each link-layer suite checks
/// the parts declared and is skipped where none is.
public struct AccessoryLink: Sendable, Hashable {
    /// The ATT_MTU an Exchange MTU from the central must reach (Core v5.4 Vol 3 Part F §3.4.2).
    public var mtu: Int?
    /// The data length each way, in octets, an LE Set Data Length must reach (Vol 6 Part B §4.5.10).
    public var dataLength: Int?
    /// The PHY an LE Set PHY must reach both ways (Vol 4 Part E §7.8.49).
    public var phy: PHYPreference?
    /// How long each update may take.
    public var update: Duration
    /// The connection interval the accessory asks for itself after connecting.
    public var requestedInterval: Duration?
    /// An interval the central changes to with LE Connection Update, which the accessory must accept.
    public var centralInterval: Duration?
    public var notify: Stream?
    public var write: Stream?

    /// A sustained stream and the floor it must reach.
    public struct Stream: Sendable, Hashable {
        /// The characteristic that carries it (nil: the bench speed service's).
        public var characteristic: BluetoothUUID?
        public var duration: Duration
        public var floorBitsPerSecond: Double
        public var latencyP95: Duration?
    }
}
