import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Every scan stops when the device is found and never outlives its limit.
    @Suite struct ScanDiscipline {
        @Test(arguments: BenchAccessories.names)
        func scanStopsAtTheFirstMatch(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let limit = bench.rig.budgets.advertisingAfterPowerOn * 3
                let clock = bench.clock
                let start = clock.now
                _ = try await bench.findAccessory(timeout: limit)
                let took = start.duration(to: clock.now)
                bench.measure("scan until found", took, budget: bench.rig.budgets.advertisingAfterPowerOn)
                #expect(took < bench.rig.budgets.advertisingAfterPowerOn, "the scan ran \(took) for a device that advertises")
            }
        }

        @Test func scanForNobodyEndsAtItsLimit() async throws {
            try await HILCase.run(accessory: nil) { bench in
                let limit = Duration.milliseconds(400)
                let clock = bench.clock
                let start = clock.now
                let results = try await bench.central.scan(ScanOptions(filter: ScanFilter(name: "HIL-Nobody-\(UInt32.random(in: 0...UInt32.max))"), timeout: limit))
                let took = start.duration(to: clock.now)
                bench.mark(.advertising, "scan ended after \(took)", duration: took)
                #expect(results.isEmpty)
                #expect(took >= limit)
                #expect(took < limit + .milliseconds(500), "the scan outlived its \(limit) limit: \(took)")
                if clock.isVirtual {
                    // A simulated bench's virtual time: the scan ends at its limit to the nanosecond.
                    #expect(took == limit, "the scan ended \(took) after it began, its limit is \(limit)")
                }
            }
        }
    }
}
