import DeviceControl
import EventLoops
import PowerMeters
import Rigs

/// The PPK2s on a rig's accessories (a `meters` entry of kind ppk2 that an accessory's `meter` names), opened when
/// the bench is leased and streaming for the whole run, not per case: a span a case marks may be measured when the
/// case ends, a PPK2 in source mode supplies its accessory between cases too, and one anchor on the bench's clock
/// serves every window. Each is the accessory's `AccessoryMeter`.
struct BenchMeters: Sendable {
    /// By accessory name.
    var accessories: [String: PPK2AccessoryMeter] = [:]

    /// Opens each PPK2 the rig's accessories name: its port (`MeterPort`), its metadata (its calibration), its mode
    /// and regulator — in source mode the accessory's supply switched on — and starts its stream on `clock`.
    static func open(rig: Rig, clock: LoopClock) async throws -> BenchMeters {
        var opened = BenchMeters()
        for (accessory, meter, port) in rig.streamedPPK2s {
            let name = meter.name
            guard !clock.isVirtual else {
                throw PowerMeterError(.unavailable, "meter \(name) is a ppk2, which streams on real time; the rig's simulated bench runs on virtual time (give its simulation \"timing\": {\"clock\": \"real\"})")
            }
            let channel = try SerialMeterChannel(path: try MeterPort.resolve(port))
            do {
                let ppk2 = PPK2Meter(channel: channel, clock: clock)
                let metadata = try await ppk2.metadata()
                let mode: PPK2Mode = meter.mode == .source ? .source : .ampere
                try await ppk2.configure(mode: mode, millivolts: meter.supplyMillivolts, devicePower: mode == .source ? true : nil)
                let decoder = PPK2Decoder(calibration: metadata.calibration, supplyMillivolts: meter.supplyMillivolts)
                let stream = try await PPK2Stream(meter: ppk2, decoder: decoder)
                opened.accessories[accessory] = PPK2AccessoryMeter(name: name, stream: stream)
            } catch {
                channel.close()
                throw error
            }
        }
        return opened
    }

    /// The switch of a rig's `ppk2` power switch: the DUT supply of its meter, opened above (the rig's consistency
    /// makes it an accessory's meter, a ppk2 in source mode); nil for a switch of another kind.
    func powerSwitch(_ description: PowerSwitchDescription) throws -> (any PowerSwitch)? {
        guard case .ppk2(let meter) = description.backend else { return nil }
        guard let opened = accessories.values.first(where: { $0.name == meter }) else {
            throw PowerSwitchError(.notFound, "\(description.name) switches the supply of PPK2 \(meter), which no accessory's meter opened")
        }
        return PPK2PowerSwitch(name: description.name, stream: opened.stream)
    }
}

/// A PPK2 streaming on the bench's clock as an accessory's meter: the figures of a window once its samples have
/// come (at most `PPK2Stream.lateness` after its end).
struct PPK2AccessoryMeter: AccessoryMeter {
    let name: String
    let stream: PPK2Stream<LoopClock>

    func figures(from start: LoopClock.Instant, to end: LoopClock.Instant) async throws -> CurrentFigures {
        try await stream.figures(from: start, to: end)
    }
}
