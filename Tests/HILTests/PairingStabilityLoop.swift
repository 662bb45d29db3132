import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Pairing again and again: each cycle connects, pairs from scratch (both sides replace the bond),
    /// reads the protected value and disconnects. Every pairing must succeed within budget.
    @Suite(.requiresSecuredAccessory) struct PairingStabilityLoop {
        @Test(arguments: BenchAccessories.securedNames)
        func pairsRepeatedly(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                try await bench.prepareSecureCentral()
                let cycles = min(bench.rig.budgets.stabilityCycles, 5)
                var failures: [String] = []
                var durations: [Double] = []
                let clock = bench.clock
                for cycle in 1...cycles {
                    let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.reconnect))
                    let start = clock.now
                    do {
                        _ = try await bench.pair(link)
                        durations.append(start.duration(to: clock.now) / .milliseconds(1))
                        if case .failure(let error) = try await bench.readProtected(link) { failures.append("cycle \(cycle): read: \(error)") }
                    } catch {
                        failures.append("cycle \(cycle): \(error)")
                    }
                    if await link.isConnected { try await link.disconnect() }
                }
                let rate = Double(cycles - failures.count) / Double(cycles)
                bench.measure("pairing success rate", value: rate, unit: "ratio", budget: bench.rig.budgets.minimumSuccessRate, samples: durations)
                #expect(rate >= bench.rig.budgets.minimumSuccessRate, "\(failures.count) of \(cycles) pairings failed: \(failures.joined(separator: "; "))")
            }
        }
    }
}
