import Foundation
import HCIPackets
import HostCore
import Simulation

/// Connect / ACL exchange / disconnect cycles on the simulated bench through two `HCIHost`s: cycles per
/// second, and resident memory at checkpoints (VmRSS now, VmHWM peak) to show it stays flat as cycles
/// accumulate (no growing tables, no leaked timers or links).
///
/// `hil-benchmark sim-cycles [--cycles 10000] [--checkpoints 1000,2000,5000,10000] [--clock virtual|real] [--time-scale 1]`
///
/// On virtual time (the default) the air jumps to its next event whenever both hosts wait, so the rate is
/// the computation's; on real time with a time scale (0.01 shrinks every air duration a hundredfold) it is
/// bounded by the scaled radio.
enum SimulationCycleBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        let cycles = max(1, options.int("cycles", default: 10_000))
        let checkpoints = Set(options.string("checkpoints", default: "1000,2000,5000,10000")
            .split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 && $0 <= cycles } + [cycles])
        let timeScale = Double(options.string("time-scale", default: "1")) ?? 1
        let clockName = options.string("clock", default: "virtual")
        guard let clockKind = SimulationTiming.Clock(rawValue: clockName) else {
            throw BenchmarkError("--clock must be virtual or real, not '\(clockName)'")
        }
        let description = SimulatedWorldDescription(
            controllers: [
                .init(name: "central", address: BDAddress(0x00_5A_1D_00_00_01), leBufferLength: 27, leBufferCount: 4),
                .init(name: "peripheral", address: BDAddress(0x00_5A_1D_00_00_02), leBufferLength: 27, leBufferCount: 4),
            ],
            timing: SimulationTiming(timeScale: timeScale, seed: 1, clock: clockKind))
        let world = try SimulatedWorld(description)
        let central = try HCIHost(transport: world.openTransport(named: "central"))
        let peripheral = try HCIHost(transport: world.openTransport(named: "peripheral"))
        try await central.initialize()
        try await peripheral.initialize()
        try await peripheral.send(LESetAdvertisingParameters(intervalMin: 0x0020, intervalMax: 0x0020))
        guard let target = await peripheral.controllerInfo?.address else { throw BenchmarkError("the peripheral did not initialize") }

        print("simulated bench: connect / ACL both ways (100-byte PDUs, 27-byte buffers) / disconnect, \(cycles) cycles, \(clockName) time, time scale \(timeScale)")
        print("  (advertising 20 ms, connection interval 30 ms, supervision 420 ms, before scaling)")
        print("  cycles   cycles/s (segment)   VmRSS MiB   VmHWM MiB   air links/timers   host connections")
        let clock = ContinuousClock()
        let runStart = clock.now
        var segmentStart = clock.now
        var segmentCycles = 0
        var rssAtCheckpoint: [Int: Double] = [:]
        // The whole run is one drive (on real time, one run on the central's loop): the cycles, and the
        // checkpoints between them, run where the hosts do.
        try await world.air.clock.drive { () async throws -> Void in
            try await central.run { () async throws -> Void in
                for cycle in 1...cycles {
                    try await Self.cycle(cycle, central: central, peripheral: peripheral, target: target)
                    segmentCycles += 1
                    guard checkpoints.contains(cycle) else { continue }
                    let elapsed = segmentStart.duration(to: clock.now)
                    let rate = Double(segmentCycles) / (elapsed / .seconds(1))
                    let memory = Self.memory()
                    let stats = await world.air.statistics()
                    let connections = await central.connections.count + peripheral.connections.count
                    rssAtCheckpoint[cycle] = memory.rss
                    print("  \(pad(cycle, 6))   \(pad(format(rate, 0), 18))   \(pad(format(memory.rss), 9))   \(pad(format(memory.hwm), 9))   \(pad("\(stats.links)/\(stats.armedTimers)", 16))   \(connections)")
                    segmentStart = clock.now
                    segmentCycles = 0
                }
            }
        }
        let total = runStart.duration(to: clock.now) / .seconds(1)
        print("  overall: \(cycles) cycles in \(format(total, 2)) s = \(format(Double(cycles) / total, 0)) cycles/s")
        if let virtual = world.air.clock.virtual {
            let jumps = virtual.jumps
            print("  virtual time: \(jumps.count) jumps skipped \(format(jumps.skipped / .seconds(1), 1)) s of waiting for the radio")
        }
        let sorted = rssAtCheckpoint.keys.sorted()
        if let first = sorted.first, let last = sorted.last, first != last, let a = rssAtCheckpoint[first], let b = rssAtCheckpoint[last] {
            print("  RSS \(first) → \(last) cycles: \(format(a)) → \(format(b)) MiB (\(b - a >= 0 ? "+" : "")\(format(b - a, 2)) MiB)")
        }
        await central.close()
        await peripheral.close()
        await world.shutdown()
    }

    /// One cycle: the peripheral advertises, the central connects, a PDU each way, one side disconnects.
    static func cycle(_ cycle: Int, central: HCIHost, peripheral: HCIHost, target: BDAddress) async throws {
        let onCentral = try await central.expect("LE Connection Complete", timeout: .seconds(5)) { event -> UInt16? in
            if case .hci(.le(.connectionComplete(let c))) = event, c.status == .success { return c.handle }
            return nil
        }
        let onPeripheral = try await peripheral.expect("LE Connection Complete", timeout: .seconds(5)) { event -> UInt16? in
            if case .hci(.le(.connectionComplete(let c))) = event, c.status == .success { return c.handle }
            return nil
        }
        try await peripheral.send(LESetAdvertisingEnable(true))
        try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public,
                                                  connection: ConnectionParameters(intervalMin: 0x18, intervalMax: 0x18)))
        let c = try await central.wait(for: onCentral)
        let p = try await peripheral.wait(for: onPeripheral)
        let pdu = [100, 0, 0x04, 0x00] + (0..<100).map { UInt8(truncatingIfNeeded: $0 &+ cycle) }
        for (from, fromHandle, to, toHandle) in [(central, c, peripheral, p), (peripheral, p, central, c)] {
            let arrived = try await to.expect("the PDU", timeout: .seconds(5)) { event -> Bool? in
                if case .aclPDU(toHandle, let data) = event { return data == pdu }
                return nil
            }
            try await from.sendACL(handle: fromHandle, pdu: pdu)
            guard try await to.wait(for: arrived) else { throw BenchmarkError("cycle \(cycle): the PDU arrived changed") }
        }
        let (local, handle) = cycle.isMultiple(of: 2) ? (central, c) : (peripheral, p)
        let (remote, remoteHandle) = cycle.isMultiple(of: 2) ? (peripheral, p) : (central, c)
        let atRemote = try await remote.expect("Disconnection Complete", timeout: .seconds(5)) { event -> Bool? in
            if case .hci(.disconnectionComplete(let d)) = event, d.handle == remoteHandle { return true }
            return nil
        }
        try await local.disconnect(handle: handle)
        _ = try await remote.wait(for: atRemote)
    }

    /// VmRSS and VmHWM of this process in MiB, from /proc/self/status (zero where it cannot be read).
    static func memory() -> (rss: Double, hwm: Double) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
                  let kilobytes = line.split(separator: " ").compactMap({ Double($0) }).first else { return 0 }
            return kilobytes / 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    static func pad(_ value: Any, _ width: Int) -> String {
        let text = "\(value)"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
