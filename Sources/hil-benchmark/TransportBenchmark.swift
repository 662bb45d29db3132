import Foundation
import Roles
#if canImport(Glibc)
import Glibc
#endif
import BenchOperations

/// Command round trip and ACL throughput through any two controller monikers on one air (btvirt's):
/// `hil-benchmark transports --a MONIKER --b MONIKER [--count N] [--acl-count N] [--acl-size BYTES] [--label TEXT]`.
/// Prints one `RESULT label rtt-median-us=… rtt-p99-us=… acl-kbps=… cpu-us=…` line that
/// scripts/bench/bench-transports turns into ratios (cpu-us: this process's CPU time per measured command).
enum TransportBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        let a = options.string("a", default: "unix:/tmp/bt-server-le")
        let b = options.string("b", default: "unix:/tmp/bt-server-le")
        let count = options.int("count", default: 500)
        let aclCount = options.int("acl-count", default: 200)
        let aclSize = max(8, options.int("acl-size", default: 100))
        let label = options.string("label", default: a)

        let peripheralHost = try await ControllerOpener.openHost(moniker: a)
        let centralHost = try await ControllerOpener.openHost(moniker: b)
        defer { Task { await peripheralHost.close(); await centralHost.close() } }
        let peripheral = LEDevice(host: peripheralHost)
        let central = LEDevice(host: centralHost)
        let info = try await peripheral.start()
        _ = try await central.start()

        // Command round trip on A.
        _ = try await peripheralHost.run { try await peripheralHost.measureRoundTrips(count: 20) }
        let cpuBefore = processCPUMicroseconds()
        let samples = try await peripheralHost.run { try await peripheralHost.measureRoundTrips(count: count) }
        // This process's CPU time per command (all its threads): on the guest's one CPU, time the bus and
        // the dongle cannot use.
        let cpuPerCommand = (processCPUMicroseconds() - cpuBefore) / Double(max(count, 1))
        let rtt = Percentiles(samples)

        // ACL: B connects to A and sends aclCount L2CAP PDUs of aclSize bytes; timed until A has them all.
        try await peripheral.startAdvertising(Advertisement(name: "hil-benchmark"))
        let connection = try await central.connect(to: info.address, type: .public, timeout: .seconds(10))
        let received = await peripheralHost.events()
        let payload = [UInt8](repeating: 0x5A, count: aclSize - 4)
        let pdu = [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), 0x40, 0x00] + payload
        let clock = ContinuousClock()
        let start = clock.now
        let counter = Task { () -> Int in
            var got = 0
            for await event in received {
                if case .aclPDU(_, let data) = event, data.count == pdu.count { got += 1 }
                if got == aclCount { break }
            }
            return got
        }
        for _ in 0..<aclCount { try await centralHost.sendACL(handle: connection.handle, pdu: pdu, timeout: .seconds(10)) }
        let deadline = Task {
            try await Task.sleep(for: .seconds(30))
            counter.cancel()
        }
        let got = await counter.value
        deadline.cancel()
        let elapsed = clock.now - start
        guard got == aclCount else { throw BenchmarkError("\(label): A received \(got) of \(aclCount) ACL PDUs within 30 s") }
        let seconds = elapsed / .seconds(1)
        let kbps = Double(aclCount * aclSize) * 8 / 1000 / seconds
        print("\(label): command round trip (Read BD_ADDR, \(samples.count)): median \(format(rtt.median)) µs, p99 \(format(rtt.p99)) µs, "
              + "\(format(cpuPerCommand)) µs of CPU per command; ACL \(aclCount) × \(aclSize) B in \(format(seconds * 1000)) ms = \(format(kbps)) kbit/s")
        print("RESULT \(label) rtt-median-us=\(format(rtt.median)) rtt-p99-us=\(format(rtt.p99)) acl-kbps=\(format(kbps)) cpu-us=\(format(cpuPerCommand))")
        _ = try? await connection.disconnect()
    }
}

/// CPU time this process has used, all threads (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`), in µs.
func processCPUMicroseconds() -> Double {
    var now = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) == 0 else { return 0 }
    return Double(now.tv_sec) * 1e6 + Double(now.tv_nsec) / 1e3
}
