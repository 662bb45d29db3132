@testable import DeviceControl
import EventLoops

/// A bench in memory: devices present, a switch that removes or keeps them, and how it reports. Its devices
/// move on the test's clock (virtual time), as real ones move on the wall clock.
actor FakeBench {
    var present: [USBPresence]
    /// Devices that power off with the switch, and come back with it.
    nonisolated let behind: [USBPresence]
    /// When true the switch reports what it was told, but the devices never move (the lying switch).
    var lies = false
    /// How long after the switch acts the devices move, on `clock` as real ones do on the wall clock (not a
    /// count of probe polls: the switch's deadline is on the clock too, so the test says when they move).
    var moveDelay: Duration = .milliseconds(20)
    /// The test's clock.
    nonisolated let clock: LoopClock
    var reported: PowerState = .on
    private var pendingMove: (power: Power, at: ContinuousClock.Instant)?

    init(present: [USBPresence], behind: [USBPresence], clock: LoopClock) {
        self.present = present
        self.behind = behind
        self.clock = clock
    }

    func setLies(_ value: Bool) { lies = value }
    func setReported(_ value: PowerState) { reported = value }

    func apply(_ power: Power) {
        reported = PowerState(power)
        if !lies { pendingMove = (power, clock.now + moveDelay) }
    }

    func snapshot() -> [USBPresence] {
        if let move = pendingMove, clock.now >= move.at {
            if move.power == .off { present.removeAll { behind.contains($0) } } else { present += behind.filter { !present.contains($0) } }
            pendingMove = nil
        }
        return present
    }
}

struct FakeProbe: USBPresenceProbe {
    let bench: FakeBench
    func presentDevices() async throws -> [USBPresence] { await bench.snapshot() }
}

struct FakeActuator: PowerActuator {
    let bench: FakeBench
    let name: String
    /// What the actuator knows is downstream (a hub knows; a PDU does not).
    var knowsDownstream = true
    var watched: [USBLocation] = []
    /// Whether the status report follows the bench, or is forced.
    var forcedStatus: PowerState?

    func apply(_ power: Power) async throws -> [String] {
        await bench.apply(power)
        return ["fake \(power)"]
    }

    func status() async throws -> PowerStatus {
        let benchState = await bench.reported
        let state = forcedStatus ?? benchState
        return PowerStatus(state: state, detail: "fake")
    }

    func downstream() async throws -> Downstream {
        guard knowsDownstream else { return Downstream(watchedLocations: watched) }
        let present = await bench.present
        let behind = bench.behind.filter { present.contains($0) }
        return Downstream(devices: behind.map { DeviceExpectation(location: $0.location, id: $0.id) }, watchedLocations: watched)
    }
}

extension USBPresence {
    static func at(_ location: String, _ id: String) -> USBPresence {
        USBPresence(location: USBLocation(location)!, id: USBID(id)!)
    }
}
