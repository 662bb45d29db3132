import BenchOperations
import Foundation
import GATT
import Roles

/// The GATT workload of scripts/bench/bench-gatt through our central, N times. scripts/peers/bumble-gatt-workload.py
/// does exactly the same through Bumble's central over the same accessory in the same run:
///
/// 1. find the accessory by name (untimed: it re-advertises after each link);
/// 2. connect (timed: `connect_ms`);
/// 3. exchange MTU offering 517, discover all primary services, for each service (in handle order) all its
///    characteristics, for each characteristic all its descriptors, then read the value of every
///    characteristic with the Read property (long reads as the client does them) (timed: `gatt_ms`);
/// 4. disconnect and wait for Disconnection Complete (timed: `disconnect_ms`).
///
/// No included services, no Database Hash, no descriptor reads. Prints one `key value` line with the
/// medians and the counts of one cycle (mtu, services, characteristics, descriptors, values read, bytes
/// read); fails when the counts differ between cycles or a read answers an ATT error.
enum GATTDiscoveryBenchmark {
    /// What one cycle found and read.
    struct Counts: Equatable, CustomStringConvertible {
        var mtu = 0
        var services = 0
        var characteristics = 0
        var descriptors = 0
        var valuesRead = 0
        var bytesRead = 0

        var description: String {
            "mtu \(mtu) services \(services) characteristics \(characteristics) descriptors \(descriptors) values_read \(valuesRead) bytes_read \(bytesRead)"
        }
    }

    static func run(_ options: BenchmarkOptions) async throws {
        let moniker = options.string("moniker", default: "unix:/tmp/bt-server-le")
        let name = options.string("name", default: "HIL-Bench")
        let count = options.int("count", default: 50)
        guard count > 0 else { throw BenchmarkError("--count must be positive") }
        let host = try await ControllerOpener.openHost(moniker: moniker)
        let central = LEDevice(host: host)
        var connectTimes: [Double] = []
        var gattTimes: [Double] = []
        var disconnectTimes: [Double] = []
        var cycleTimes: [Double] = []
        var first: Counts?
        let clock = ContinuousClock()
        do {
            for cycle in 0..<count {
                let found = try await central.find(ScanFilter(name: name), timeout: .seconds(10))
                let start = clock.now
                let link = try await central.connect(to: found.address, type: found.addressType, timeout: .seconds(5))
                let connected = clock.now
                let counts = try await workload(link.gatt)
                let done = clock.now
                try await link.disconnect()
                let disconnected = clock.now
                if let first, first != counts {
                    throw BenchmarkError("cycle \(cycle + 1) found \(counts), the first found \(first)")
                }
                first = counts
                guard counts.services > 0 else { throw BenchmarkError("discovery found no services") }
                connectTimes.append(start.duration(to: connected) / .milliseconds(1))
                gattTimes.append(connected.duration(to: done) / .milliseconds(1))
                disconnectTimes.append(done.duration(to: disconnected) / .milliseconds(1))
                cycleTimes.append(start.duration(to: disconnected) / .milliseconds(1))
            }
        } catch {
            await central.close()
            throw error
        }
        await central.close()
        let gatt = Percentiles(gattTimes)
        print("ours connect_ms_median \(format(Percentiles(connectTimes).median, 3)) gatt_ms_median \(format(gatt.median, 3))"
              + " gatt_ms_p99 \(format(gatt.p99, 3)) disconnect_ms_median \(format(Percentiles(disconnectTimes).median, 3))"
              + " cycle_ms_median \(format(Percentiles(cycleTimes).median, 3)) n \(count) \(first.map(\.description) ?? "")")
    }

    /// Step 3 of the workload on a fresh connection.
    static func workload(_ gatt: GATTClient) async throws -> Counts {
        var counts = Counts()
        counts.mtu = try await gatt.exchangeMTU()
        let services = try await gatt.discoverPrimaryServices().sorted { $0.handle < $1.handle }
        counts.services = services.count
        for service in services {
            let characteristics = try await gatt.discoverCharacteristics(of: service)
            counts.characteristics += characteristics.count
            for characteristic in characteristics {
                counts.descriptors += try await gatt.discoverDescriptors(of: characteristic).count
            }
            for characteristic in characteristics where characteristic.properties.contains(.read) {
                let value = try await gatt.read(handle: characteristic.valueHandle)
                counts.valuesRead += 1
                counts.bytesRead += value.count
            }
        }
        return counts
    }
}
