import BenchOperations
import Foundation
import HCI

/// Full GATT discovery (services, characteristics, descriptors) of an accessory through our central, N
/// times; scripts/bench-gatt runs Bumble's central over the same accessory in the same run.
enum GATTDiscoveryBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        let moniker = options.string("moniker", default: "unix:/tmp/bt-server-le")
        let name = options.string("name", default: "HIL-Bench")
        let count = options.int("count", default: 50)
        let host = try ControllerOpener.openHost(moniker: moniker)
        let central = LEDevice(host: host)
        var connectTimes: [Double] = []
        var discoveryTimes: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<count {
            // As Bumble's central does: find the accessory (it re-advertises after each link), then connect.
            let found = try await central.find(ScanFilter(name: name), timeout: .seconds(10))
            let start = clock.now
            let link = try await central.connect(to: found.address, type: found.addressType, timeout: .seconds(5))
            let connected = clock.now
            let tree = try await link.gatt.discoverAll(readValues: false)
            let discovered = clock.now
            guard !tree.services.isEmpty else { throw BenchmarkError("discovery found no services") }
            try await link.disconnect()
            connectTimes.append(start.duration(to: connected) / .milliseconds(1))
            discoveryTimes.append(connected.duration(to: discovered) / .milliseconds(1))
        }
        await central.close()
        let connect = Percentiles(connectTimes)
        let discovery = Percentiles(discoveryTimes)
        print("ours connect_ms_median \(format(connect.median, 3)) discovery_ms_median \(format(discovery.median, 3)) discovery_ms_p99 \(format(discovery.p99, 3)) n \(count)")
    }
}
