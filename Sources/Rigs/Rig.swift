import DeviceControl
import Foundation
import HCIPackets
import SMP
import Roles
import Simulation

/// A bench description (a "rig file"): the adapter, the power switches, the accessories and how to
/// recognise them, the timing budgets the standard suites hold them to, and — for the simulated bench —
/// the simulated controllers and accessory firmware.
public struct Rig: Sendable, Equatable {
    public var name: String
    public var summary: String?
    /// The central adapter, by transport moniker (`sim:central`, `usb:0`, `unix:/tmp/bt-server-le`, …).
    public var adapter: Adapter
    public var accessories: [Accessory]
    public var budgets: Budgets
    /// Reasons a central may see when an accessory loses power: 0x08 Connection Timeout on a real radio;
    /// an emulator rig may list the ones its emulator uses.
    public var remoteLossReasons: [HCIStatus]
    /// The reason a central sees for its own Disconnect: 0x16 Connection Terminated By Local Host on a real
    /// controller; btvirt echoes the reason it was sent (0x13).
    public var localDisconnectReasons: [HCIStatus]
    /// Whether the central's controller reports a lost peer at all. btvirt never does (no supervision
    /// timeout model): the suites that need a link loss are then skipped with that reason.
    public var reportsLinkLoss: Bool
    /// Whether an accessory learns that the central's controller was reset (its link times out). Rootcanal
    /// 1.10 never tells the peer of a Reset, so the adapter-reset suite is skipped there with that reason.
    public var peerSeesAdapterReset: Bool
    /// The simulated bench, when the rig has simulated controllers.
    public var simulation: SimulatedWorldDescription?
    /// The hardware (or process) power switches of `powerSwitches`, checked when the rig was read.
    public var powerSwitches: [PowerSwitchDescription]
    /// The power meters of `meters`.
    public var meters: [RigMeter] = []
    /// Where the file was read from.
    public var path: String?
    /// The labgrid place this bench is (`"labgrid": {"coordinator": …, "place": …}`): `hil run` acquires it for
    /// the run instead of taking this host's rig lock; nil for a bench of this host alone.
    public var labgrid: LabgridPlace? = nil

    public struct Adapter: Sendable, Hashable {
        public var moniker: String
        /// The rig switch and port that power the adapter itself (for the last rung of the recovery ladder).
        public var power: PowerReference?
    }

    public struct PowerReference: Sendable, Hashable {
        public var switchName: String
        public var port: Int
    }

    public struct Accessory: Sendable, Hashable {
        public var name: String
        /// How to recognise it over the air.
        public var match: ScanFilter
        public var power: PowerReference?
        /// Services discovery must find.
        public var expectedServices: [BluetoothUUID]
        /// Its firmware, when it is a simulated accessory.
        public var simulated: SimulatedAccessoryDescription?
        /// How it pairs and what it protects, when it declares security (the security suites skip it otherwise).
        public var security: AccessorySecurity?
        /// It misbehaves on purpose (a hostile firmware under test): the hostile-accessory suite runs on the rig.
        public var malicious: Bool = false
        /// What its link layer must reach (the link-layer suites skip it where it declares nothing).
        public var link: AccessoryLink? = nil
        /// The name of the meter (of the rig's `meters`) that measures its supply current.
        public var meter: String? = nil
        /// The energy budgets its meter holds it to.
        public var energy: AccessoryEnergy? = nil
        /// How it updates over MCUmgr SMP, when it declares it (`firmwareUpdate`).
        public var firmwareUpdate: AccessoryFirmwareUpdate? = nil
    }

    /// Timing budgets, in seconds, and loop settings.
    public struct Budgets: Sendable, Hashable {
        public var advertisingAfterPowerOn: Duration
        public var connect: Duration
        public var discovery: Duration
        /// Added to the supervision timeout when waiting for a link loss to be reported.
        public var linkLossMargin: Duration
        public var reconnect: Duration
        public var adapterReset: Duration
        /// The supervision timeout the central asks for (10 ms units are derived from it).
        public var supervisionTimeout: Duration
        /// The connection interval the central asks for (7.5 ms … 4 s).
        public var connectionInterval: Duration
        public var stabilityCycles: Int
        public var connectP95: Duration
        public var discoveryP95: Duration
        public var minimumSuccessRate: Double
        /// A pairing, from Pairing Request to the last distributed key.
        public var pairing: Duration = .milliseconds(5000)
        /// Re-encryption with a bond's key (LE Enable Encryption to Encryption Change).
        public var encryption: Duration = .milliseconds(2000)
    }

    /// The accessory named `name`.
    public func accessory(named name: String) -> Accessory? { accessories.first { $0.name == name } }

    /// Connection parameters the suites use: the rig's interval, no latency, the rig's supervision timeout.
    public var connectionParameters: ConnectionParameters {
        // The rig reader has checked both ranges (100…32000 ms, 7.5…4000 ms: Core v5.4 Vol 4 Part E
        // §7.8.12), so the units are 10…3200 and 6…3200 (the clamp only keeps a hand-built Budgets from trapping).
        let timeoutUnits = UInt16(clamping: Int((budgets.supervisionTimeout / .milliseconds(10)).rounded()))
        let intervalUnits = UInt16(clamping: Int((budgets.connectionInterval / .microseconds(1250)).rounded()))
        return ConnectionParameters(intervalMin: intervalUnits, intervalMax: intervalUnits, latency: 0, supervisionTimeout: timeoutUnits)
    }
}

