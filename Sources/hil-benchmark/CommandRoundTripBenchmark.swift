import Foundation
import HCIPackets
import HostCore
#if canImport(Glibc)
import Glibc
#endif
import BenchOperations

/// HCI command round trip (Read BD_ADDR) through our host against a controller on a Unix socket, beside
/// a raw blocking-socket loop doing the same in the same run. With `--samples PREFIX` it also writes every
/// sample in µs, one a line, to PREFIX.raw and PREFIX.host, so scripts/bench/bench-hci can pool them with
/// Bumble's (scripts/peers/bumble-hci-roundtrip.py) from interleaved runs.
enum CommandRoundTripBenchmark {
    static func run(_ options: BenchmarkOptions) async throws {
        let path = options.string("socket", default: "/tmp/bt-server-le")
        let count = options.int("count", default: 5000)
        let rounds = options.int("rounds", default: 3)
        guard count >= rounds, rounds > 0 else { throw BenchmarkError("--count and --rounds must be positive and count >= rounds") }
        var hostSamples: [Double] = []
        var rawSamples: [Double] = []
        // Interleave rounds so drift on the machine hits both alike.
        for _ in 0..<rounds {
            rawSamples += try rawLoop(path: path, count: count / rounds)
            hostSamples += try await hostLoop(path: path, count: count / rounds)
        }
        let host = Percentiles(hostSamples)
        let raw = Percentiles(rawSamples)
        print("command round trip, Read BD_ADDR, \(hostSamples.count) commands each, unix:\(path)")
        print("  raw socket loop: median \(format(raw.median)) µs, p99 \(format(raw.p99)) µs")
        print("  HCIHost        : median \(format(host.median)) µs, p99 \(format(host.p99)) µs")
        print("  ratio host/raw : median \(format(host.median / raw.median, 2))×, p99 \(format(host.p99 / raw.p99, 2))×")
        let prefix = options.string("samples", default: "")
        if !prefix.isEmpty {
            try writeSamples(rawSamples, to: prefix + ".raw")
            try writeSamples(hostSamples, to: prefix + ".host")
        }
    }

    static func writeSamples(_ samples: [Double], to path: String) throws {
        let text = samples.map { format($0, 3) + "\n" }.joined()
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw BenchmarkError("cannot write \(path): \(error)")
        }
    }

    static func hostLoop(path: String, count: Int) async throws -> [Double] {
        let host = try await ControllerOpener.openHost(moniker: "unix:\(path)")
        try await host.initialize()
        let samples = try await host.run { try await host.measureRoundTrips(count: count) }
        await host.close()
        return samples
    }

    static func rawLoop(path: String, count: Int) throws -> [Double] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw BenchmarkError("cannot connect to \(path)") }
        defer { close(fd) }
        let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
        let readBDADDR: [UInt8] = [0x01, 0x09, 0x10, 0x00]
        var buffer = [UInt8](repeating: 0, count: 512)
        func roundTrip(_ command: [UInt8]) throws {
            _ = command.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            // Read until one whole event (04 0E len ...) is in.
            var have = 0
            while have < 3 || have < 3 + Int(buffer[2]) {
                let n = buffer.withUnsafeMutableBytes { raw in raw.baseAddress.map { read(fd, $0 + have, 512 - have) } ?? -1 }
                guard n > 0 else { throw BenchmarkError("controller closed the raw socket") }
                have += n
            }
        }
        try roundTrip(reset)
        var samples: [Double] = []
        samples.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            try roundTrip(readBDADDR)
            samples.append(start.duration(to: clock.now) / .microseconds(1))
        }
        return samples
    }
}

extension HCIHost {
    /// Runs the measured loop on the host's own executor, as the runner's transitions do.
    func measureRoundTrips(count: Int) async throws -> [Double] {
        var samples: [Double] = []
        samples.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            _ = try await send(ReadBDADDR())
            samples.append(start.duration(to: clock.now) / .microseconds(1))
        }
        return samples
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
