import HCIPackets
import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Connection-parameter changes both ways: the interval the accessory asks for itself is in use within
    /// the update budget, and one the central makes with LE Connection Update is accepted.
    @Suite(.requiresLink("a connection interval", { $0.requestedInterval != nil || $0.centralInterval != nil })) struct LinkParameterChanges {
        @Test(.requiresLink("an interval it asks for (requestedIntervalMilliseconds)", { $0.requestedInterval != nil }),
              arguments: BenchAccessories.linkNames { $0.requestedInterval != nil })
        func accessoryRequestIsHonoured(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let declared = try bench.accessoryLink()
            let requested = try #require(declared.requestedInterval)
            let units = UInt16((requested / .microseconds(1250)).rounded())
            let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
            if await link.interval != units {
                let update = try await bench.awaitLinkEvent(link, "LE Connection Update Complete at the accessory's interval", budget: declared.update) { event in
                    if case .parameters(let update) = event, update.interval == units { return update }
                    return nil
                }
                #expect(update.status == .success)
            }
            let settled = await link.interval
            #expect(settled == units, "interval \(settled) × 1.25 ms; the accessory asked for \(units)")
            try await link.disconnect()
        }

        @Test(.requiresLink("an interval the central changes to (centralIntervalMilliseconds)", { $0.centralInterval != nil }),
              arguments: BenchAccessories.linkNames { $0.centralInterval != nil })
        func centralChangeIsAccepted(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let declared = try bench.accessoryLink()
            let interval = try #require(declared.centralInterval)
            let units = UInt16((interval / .microseconds(1250)).rounded())
            let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
            let current = bench.rig.connectionParameters
            // A supervision timeout the new interval allows (Core v5.4 Vol 4 Part E §7.8.18).
            let timeout = max(current.supervisionTimeout, ConnectionParameters.shortestSupervisionTimeout(interval: units))
            let started = bench.clock.now
            try await link.updateParameters(ConnectionParameters(intervalMin: units, intervalMax: units, latency: 0, supervisionTimeout: timeout),
                                            timeout: declared.update)
            bench.measure("connection update", started.duration(to: bench.clock.now), budget: declared.update)
            let settled = await link.interval
            #expect(settled == units, "interval \(settled) × 1.25 ms after the update; asked for \(units)")
            try await link.disconnect()
        }
    }
}
