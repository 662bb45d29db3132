import EventLoops
import HCIPackets
import HostCore
import PowerMeters
import Simulation
import TestSupport
import Testing

/// The charge a current model draws on the air: integrated exactly over a window, charged at the instants the
/// spec's timings give (advertising events at the advertising interval, connection events at the connection
/// interval from the first anchor 1.25 ms after CONNECT_IND), and the same in two virtual-time runs of a seed.
@Suite struct SimulatedChargeTraceTests {
    /// 2 µA asleep, 4 µC per advertising channel, 3 µC per connection event (the defaults, written out here).
    static let model: SimulatedCurrentModel = {
        var model = SimulatedCurrentModel()
        model.sleepMicroamperes = 2
        model.advertisingChannelMicrocoulombs = 4
        model.connectionEventMicrocoulombs = 3
        return model
    }()

    @Test func integratesSleepTrainsAndImpulsesExactly() async throws {
        try await withSteppedTime { time in Self.integrate(on: time.clock) }
    }

    static func integrate(on clock: LoopClock) {
        let origin = clock.now
        let trace = SimulatedChargeTrace(model: model, clock: clock, powered: true)
        // Connection events every 30 ms from 1.25 ms: in [0, 1 s) those at 1.25 + 30k ms for k = 0…33.
        trace.connectionEvents(of: 1, from: origin.advanced(by: .microseconds(1250)), every: .milliseconds(30))
        trace.add(50, at: origin.advanced(by: .milliseconds(500)))
        let second = origin.advanced(by: .seconds(1))
        let figures = trace.figures(from: origin, to: second, supplyVolts: 3)
        #expect(figures.chargeMicrocoulombs == 34 * 3 + 50 + 2)
        #expect(figures.samples == 100_000)
        #expect(abs(figures.averageMicroamperes - 154) < 1e-9)
        #expect(abs(figures.energyMicrojoules - 462) < 1e-9)
        // The link ends at 1 s and power goes at 2 s: the second second is sleep alone, then nothing.
        trace.linkEnded(1, at: second)
        trace.powerOff(at: origin.advanced(by: .seconds(2)))
        #expect(trace.charge(from: second, to: origin.advanced(by: .seconds(3))) == 2)
        #expect(trace.charge(from: origin.advanced(by: .seconds(2)), to: origin.advanced(by: .seconds(3))) == 0, "an ended train adds nothing")
        // A window's edges: an event at its start counts, one at its end does not.
        let event = origin.advanced(by: .microseconds(1250 + 30_000))
        #expect(trace.charge(from: event, to: event.advanced(by: .milliseconds(30))) == 3 + 2 * 0.03)
    }

    /// Advertising with no advDelay, a 20 ms interval (0x0020 × 0.625 ms, Core v5.4 Vol 6 Part B §4.4.2.2) on
    /// the three primary channels: in the first 100 ms, events at 0, 20, 40, 60 and 80 ms, each 3 × 4 µC.
    @Test func advertisingEventsChargeEachChannel() async throws {
        var description = SimulatedWorldFixture.twoControllers
        description.timing = SimulationTiming(maximumAdvertisingDelayMilliseconds: 0, seed: 7, clock: .virtual)
        try await SimulatedWorldFixture.with(description, hosts: ["peripheral"]) { world, hosts in
            let trace = world.air.traceCharge(of: "peripheral", model: Self.model, powered: true)
            try await hosts[0].send(LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20))
            let start = world.air.clock.now
            try await hosts[0].send(LESetAdvertisingEnable(true))
            try await Task.sleep(for: .milliseconds(100), clock: world.air.clock)
            let charge = trace.charge(from: start, to: start.advanced(by: .milliseconds(100)))
            #expect(abs(charge - (5 * 12 + 0.2)) < 1e-9)
        }
    }

    @Test func twoVirtualRunsOfASeedGiveEqualFigures() async throws {
        let first = try await Self.connectExchangeDisconnect()
        let second = try await Self.connectExchangeDisconnect()
        #expect(first == second)
        // Connected time carries connection events and the PDUs' air time: more than sleep and advertising alone.
        #expect(first.count == 3 && first[1].chargeMicrocoulombs > 3)
    }

    /// Advertising, a link carrying one 64-octet PDU, a disconnect and 200 ms after: the figures of each part.
    static func connectExchangeDisconnect(timeScale: Double = 1, model: SimulatedCurrentModel = model) async throws -> [CurrentFigures] {
        var description = SimulatedWorldFixture.twoControllers
        description.timing = SimulationTiming(timeScale: timeScale, seed: 42, clock: .virtual)
        return try await SimulatedWorldFixture.with(description, hosts: ["central", "peripheral"]) { world, hosts in
            let (central, peripheral) = (hosts[0], hosts[1])
            let trace = world.air.traceCharge(of: "peripheral", model: model, powered: true)
            let clock = world.air.clock
            let target = try #require(await peripheral.controllerInfo?.address)
            let start = clock.now
            try await peripheral.send(LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20))
            let onCentral = try await HostScenarios.expectConnectionComplete(central, "the central")
            let onPeripheral = try await HostScenarios.expectConnectionComplete(peripheral, "the peripheral")
            try await peripheral.send(LESetAdvertisingEnable(true))
            try await Task.sleep(for: .milliseconds(100), clock: clock)
            try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public, connection: ConnectedPair.fastLink))
            let c = try await central.wait(for: onCentral).handle
            let p = try await peripheral.wait(for: onPeripheral).handle
            let connected = clock.now
            let arrived = try await peripheral.expect("the PDU", timeout: .seconds(2)) { event -> Int? in
                if case .aclPDU(p, let data) = event { return data.count }
                return nil
            }
            try await central.sendACL(handle: c, pdu: HostScenarios.pdu(60))
            _ = try await peripheral.wait(for: arrived)
            try await Task.sleep(for: .milliseconds(300), clock: clock)
            #expect(try await central.disconnect(handle: c) == .connectionTerminatedByLocalHost)
            let disconnected = clock.now
            try await Task.sleep(for: .milliseconds(200), clock: clock)
            let end = clock.now
            return [trace.figures(from: start, to: connected, supplyVolts: 3), trace.figures(from: connected, to: disconnected, supplyVolts: 3),
                    trace.figures(from: disconnected, to: end, supplyVolts: 3)]
        }
    }
}

extension SimulatedChargeTraceTests {
    /// With `timeScale` 0.1 a PDU's air time is a tenth of the spec's (`AirTime`), and so is its charge: the
    /// radio is on for as long as the scaled air takes. Only the PDUs draw here (no sleep, advertising or
    /// connection-event charge), so the connected part's charge is theirs alone.
    @Test func pduChargesFollowTheScaledAirTime() async throws {
        var pdusOnly = Self.model
        (pdusOnly.sleepMicroamperes, pdusOnly.advertisingChannelMicrocoulombs, pdusOnly.connectionEventMicrocoulombs) = (0, 0, 0)
        let unscaled = try await Self.connectExchangeDisconnect(model: pdusOnly)[1].chargeMicrocoulombs
        let scaled = try await Self.connectExchangeDisconnect(timeScale: 0.1, model: pdusOnly)[1].chargeMicrocoulombs
        #expect(unscaled > 0.0053 * 80, "the 64-octet PDU alone is more than 80 µs on the air at 1 Mb/s: \(unscaled) µC")
        #expect(abs(scaled - unscaled / 10) < 1e-9, "\(scaled) µC at a tenth of the time, \(unscaled) µC at 1")
    }

    /// The trace cut in 1 ms bins: each bin's charge as the window's exact integral gives it, a radio event in the
    /// bin of its instant, and the bins adding up to the whole window's charge.
    @Test func binsHoldEachBinsExactCharge() async throws {
        try await withSteppedTime { time in
            let clock = time.clock
            let origin = clock.now
            let trace = SimulatedChargeTrace(model: Self.model, clock: clock, powered: true)
            trace.connectionEvents(of: 1, from: origin.advanced(by: .microseconds(1250)), every: .milliseconds(30))
            trace.add(50, at: origin.advanced(by: .microseconds(2500)))
            let end = origin.advanced(by: .microseconds(100_500))
            let bins = trace.bins(from: origin, to: end, binSeconds: 0.001)
            #expect(bins.binSeconds == 0.001 && bins.microamperes.count == 101)
            // 2 µA asleep; the event at 1.25 ms (3 µC) in bin 1, the 50 µC at 2.5 ms in bin 2, 31.25 ms in bin 31.
            #expect(abs(bins.microamperes[0] - 2) < 1e-9)
            #expect(abs(bins.microamperes[1] - 3002) < 1e-9)
            #expect(abs(bins.microamperes[2] - 50_002) < 1e-9)
            #expect(abs(bins.microamperes[31] - 3002) < 1e-9)
            // The last bin is cut at 100.5 ms and keeps its width: half a millisecond asleep is 1 µA over 1 ms.
            #expect(abs(bins.microamperes[100] - 1) < 1e-9)
            for index in 0..<100 {
                let start = origin.advanced(by: .milliseconds(index))
                let exact = trace.charge(from: start, to: start.advanced(by: .milliseconds(1)))
                #expect(abs(bins.microamperes[index] * 0.001 - exact) < 1e-9, "bin \(index)")
            }
            #expect(abs(bins.chargeMicrocoulombs - trace.charge(from: origin, to: end)) < 1e-9)
        }
    }
}
