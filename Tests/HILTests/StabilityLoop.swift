import Foundation
import Roles
import HILResults
import HILTesting
import Testing

extension StandardSuites {
    /// N connect/discover/disconnect cycles (N from the rig, multiplied by `hil run --repeat`): the
    /// success rate and the p95 of connect and discovery times are held to the rig's thresholds.
    @Suite struct StabilityLoop {
        @Test(arguments: BenchAccessories.names)
        func cycles(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let repeats = Int(ProcessInfo.processInfo.environment["HIL_REPEAT"] ?? "") ?? 1
                let total = bench.rig.budgets.stabilityCycles * max(1, repeats)
                var connects: [Double] = []
                var discoveries: [Double] = []
                var failures: [String] = []
                let clock = bench.clock
                for index in 0..<total {
                    do {
                        let scanStart = clock.now
                        let found = try await bench.central.find(bench.accessory?.match ?? ScanFilter(), timeout: bench.rig.budgets.advertisingAfterPowerOn)
                        let start = clock.now
                        bench.mark(.advertising, "cycle \(index + 1): found", duration: scanStart.duration(to: start))
                        let link = try await bench.central.connect(to: found.address, type: found.addressType,
                                                                   parameters: bench.rig.connectionParameters, timeout: bench.rig.budgets.connect)
                        let connected = clock.now
                        _ = try await link.gatt.discoverAll()
                        let discovered = clock.now
                        let disconnecting = clock.now
                        try await link.disconnect()
                        bench.mark(.connection, "cycle \(index + 1): disconnected", duration: disconnecting.duration(to: clock.now))
                        bench.mark(.connection, "cycle \(index + 1): connected", duration: start.duration(to: connected))
                        bench.mark(.discovery, "cycle \(index + 1): discovered", duration: connected.duration(to: discovered))
                        connects.append(start.duration(to: connected) / .milliseconds(1))
                        discoveries.append(connected.duration(to: discovered) / .milliseconds(1))
                    } catch {
                        failures.append("cycle \(index + 1): \(error)")
                        bench.mark(.note, "cycle \(index + 1) failed: \(error)", failure: true)
                    }
                    LoopProgress(testID: String(describing: Test.current?.id), accessory: accessory, label: "cycles", done: index + 1, total: total).report()
                }
                let rate = Double(total - failures.count) / Double(total)
                bench.measure("success rate", value: rate * 100, unit: "%", budget: bench.rig.budgets.minimumSuccessRate * 100)
                let connectStats = SampleStatistics.percentiles(connects)
                let discoveryStats = SampleStatistics.percentiles(discoveries)
                bench.measure("connect p99", value: connectStats.p99, unit: "ms")
                bench.measure("discovery p99", value: discoveryStats.p99, unit: "ms")
                bench.measure("connect", value: connectStats.p50, unit: "ms", budget: (bench.rig.budgets.connectP95 / .milliseconds(1)), samples: connects)
                bench.measure("discovery", value: discoveryStats.p50, unit: "ms", budget: (bench.rig.budgets.discoveryP95 / .milliseconds(1)), samples: discoveries)
                #expect(rate >= bench.rig.budgets.minimumSuccessRate, "success \(Int(rate * 100))%: \(failures.prefix(3).joined(separator: "; "))")
                if !connects.isEmpty {
                    #expect(connectStats.p95 <= (bench.rig.budgets.connectP95 / .milliseconds(1)), "connect p95 \(connectStats.p95) ms")
                    #expect(discoveryStats.p95 <= (bench.rig.budgets.discoveryP95 / .milliseconds(1)), "discovery p95 \(discoveryStats.p95) ms")
                }
            }
        }
    }
}
