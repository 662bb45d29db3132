import MCUmgr

/// What a simulated accessory draws from its supply, as its rig declares it (`simulated.current`): a sleep
/// current while powered, plus a charge for each thing its radio does. The defaults are of the order of a
/// Nordic nRF52832 at 0 dBm on its DC/DC regulator (Nordic's Online Power Profiler): about 2 µA asleep with
/// the RTC running, 5.3 mA transmitting, 5.4 mA receiving.
package struct SimulatedCurrentModel: Sendable, Hashable {
    /// The current between radio events while powered, in µA.
    package var sleepMicroamperes: Double = 2
    /// The charge of an advertising event per primary advertising channel used (Core v5.4 Vol 6 Part B
    /// §4.4.2.1: an event sends on each channel of its channel map), in µC.
    package var advertisingChannelMicrocoulombs: Double = 4
    /// The charge of each connection event (§4.5.1) apart from its data PDUs' air time: wake-up, ramp-up and
    /// its empty exchange, in µC. Every event at the connection interval counts (peripheral latency is not
    /// modelled: the accessory listens at each anchor).
    package var connectionEventMicrocoulombs: Double = 3
    /// The charge per µs of air time of a data PDU it transmits (the TX current), in µC/µs.
    package var transmitMicrocoulombsPerMicrosecond: Double = 0.0053
    /// The charge per µs of air time of a data PDU it receives (the RX current), in µC/µs.
    package var receiveMicrocoulombsPerMicrosecond: Double = 0.0054
    /// The charge of each boot, at power-on, in µC.
    package var bootMicrocoulombs: Double = 50
    /// The current while its flash erases (a firmware update's secondary slot, for the `dfu` block's
    /// `eraseMilliseconds`), in µA: charged as current × that time, at the erase's start. The default is of the
    /// order of an nRF52's NVMC erasing (its CPU waiting): 5 mA.
    package var flashEraseMicroamperes: Double = 5000
    /// The current while its flash writes (each upload chunk, for `writeMillisecondsPerKiB` per KiB), in µA:
    /// charged as current × that time, at the write's start. Default 5 mA.
    package var flashWriteMicroamperes: Double = 5000

    /// The charge of `work`, in µC: its current times its time.
    package func charge(of work: MCUbootSlots.FlashWork) -> Double {
        switch work {
        case .erase(let duration): flashEraseMicroamperes * (duration / .seconds(1))
        case .write(_, let duration): flashWriteMicroamperes * (duration / .seconds(1))
        }
    }

    /// The defaults: every field as documented.
    package init() {}
}
