import GATT
import MCUmgr
import SMP

/// A simulated accessory: our peripheral role running on one simulated controller, as a rig declares it.
public struct SimulatedAccessoryDescription: Sendable, Hashable {
    /// The simulated controller it runs on (a name in the world's `controllers`).
    package var controller: String
    /// The advertised complete local name.
    package var name: String
    /// Ready-made GATT profiles it serves besides GAP and GATT ("battery", "heart-rate", …).
    package var services: [StandardProfile]
    package var advertisingIntervalMilliseconds: Double
    /// Time from power-on to advertising.
    package var bootDelayMilliseconds: Double
    package var faults: SimulatedAccessoryFaults
    /// Pairing and protected data, when its rig accessory declares security (nil: it answers Pairing Not
    /// Supported and serves nothing protected).
    package var security: AccessorySecurity?
    /// It serves Bumble's bench speed service and streams on it (`BenchServer`).
    package var bench: Bool
    /// The connection interval it asks a central for right after connecting, in milliseconds (nil: none).
    package var requestsIntervalMilliseconds: Double?
    /// MCUboot slots managed over MCUmgr SMP (nil: it serves no firmware update).
    package var dfu: SimulatedDFU?
    /// What it draws from its supply (nil: no current model; no meter can measure it).
    package var current: SimulatedCurrentModel?

    package init(controller: String, name: String, services: [StandardProfile], advertisingIntervalMilliseconds: Double = 40,
                bootDelayMilliseconds: Double = 20, faults: SimulatedAccessoryFaults = SimulatedAccessoryFaults(),
                security: AccessorySecurity? = nil, bench: Bool = false, requestsIntervalMilliseconds: Double? = nil, dfu: SimulatedDFU? = nil,
                current: SimulatedCurrentModel? = nil) {
        self.bench = bench
        self.current = current
        self.dfu = dfu
        self.requestsIntervalMilliseconds = requestsIntervalMilliseconds
        self.controller = controller
        self.name = name
        self.services = services
        self.advertisingIntervalMilliseconds = advertisingIntervalMilliseconds
        self.bootDelayMilliseconds = bootDelayMilliseconds
        self.faults = faults
        self.security = security
    }
}

/// Faults a simulated accessory can carry, so the harness can prove each standard transition catches them.
package struct SimulatedAccessoryFaults: Sendable, Hashable {
    /// It no longer advertises once it has been powered on more than this many times (counting the first).
    package var stopsAdvertisingAfterPowerCycles: Int?
    /// It drops every link this long after it forms (Disconnect, 0x13).
    package var dropsLinkAfterMilliseconds: Double?
    /// Its ATT server answers every request this late.
    package var slowATTMilliseconds: Double?
    /// Any write to its GATT database reboots it (links lost, advertising after the boot delay).
    package var rebootsOnWrite: Bool
    /// Its controller never accepts a connection (LE Create Connection stays pending).
    package var refusesConnections: Bool
    /// It loses its bonds at every power cycle (keys kept in RAM instead of flash).
    package var forgetsBondsOnPowerCycle: Bool
    /// Its protected characteristic is readable on an unencrypted link (the firmware forgot the permission).
    package var servesProtectedUnencrypted: Bool
    /// It answers every Pairing Request with Pairing Failed, 0x05 Pairing Not Supported.
    package var rejectsPairing: Bool
    /// It answers a reconnecting central's LTK request with a wrong key (the link ends with a MIC failure).
    package var answersWithWrongLTK: Bool
    /// Its ATT server misbehaves on purpose in answer to discovery (a truncated, oversized or wrong response).
    package var maliciousATT: SimulatedMaliciousATT?
    /// Its host prefers LE 1M and LE Coded only (LE Set Default PHY without LE 2M).
    package var rejectsPHY2M: Bool
    /// With `bench`, its stream stops once the ATT_MTU is above 23.
    package var stopsNotifyingWhenMTUGrows: Bool
    /// With `bench`, it streams at half the rate the link offers.
    package var halvesNotificationRate: Bool
    /// With `dfu`: the update path's faults (an upload offset lost at a reset, a test image confirmed at once, a
    /// device bricked by a power cut during the swap).
    package var dfu: MCUbootSlots.Faults

    package init(stopsAdvertisingAfterPowerCycles: Int? = nil, dropsLinkAfterMilliseconds: Double? = nil,
                slowATTMilliseconds: Double? = nil, rebootsOnWrite: Bool = false, refusesConnections: Bool = false,
                forgetsBondsOnPowerCycle: Bool = false, servesProtectedUnencrypted: Bool = false, rejectsPairing: Bool = false,
                answersWithWrongLTK: Bool = false, maliciousATT: SimulatedMaliciousATT? = nil, rejectsPHY2M: Bool = false,
                stopsNotifyingWhenMTUGrows: Bool = false, halvesNotificationRate: Bool = false, dfu: MCUbootSlots.Faults = MCUbootSlots.Faults()) {
        self.dfu = dfu
        self.rejectsPHY2M = rejectsPHY2M
        self.stopsNotifyingWhenMTUGrows = stopsNotifyingWhenMTUGrows
        self.halvesNotificationRate = halvesNotificationRate
        self.stopsAdvertisingAfterPowerCycles = stopsAdvertisingAfterPowerCycles
        self.dropsLinkAfterMilliseconds = dropsLinkAfterMilliseconds
        self.slowATTMilliseconds = slowATTMilliseconds
        self.rebootsOnWrite = rebootsOnWrite
        self.refusesConnections = refusesConnections
        self.forgetsBondsOnPowerCycle = forgetsBondsOnPowerCycle
        self.servesProtectedUnencrypted = servesProtectedUnencrypted
        self.rejectsPairing = rejectsPairing
        self.answersWithWrongLTK = answersWithWrongLTK
        self.maliciousATT = maliciousATT
    }
}
