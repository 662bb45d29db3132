import Foundation
@testable import HCITransports
@testable import HostCore
@testable import Roles
@testable import Rigs
import Simulation
import Testing
import TestSupport

/// The simulated bench on virtual time is a replay: the same rig and seed give the same packets, in the
/// same order, at the same offsets from the start — two runs, two captures, compared record by record. Each
/// run is a drive of its bench's clock, and the captures are stamped on it: nothing here reads the wall clock.
@Suite struct VirtualTimeDeterminismTests {
    /// One btsnoop record: direction flags, bytes, and microseconds since the capture's first record.
    struct Record: Equatable, CustomStringConvertible {
        let flags: UInt32
        let offset: Int64
        let bytes: [UInt8]
        var description: String { "\(flags == 0 ? "→" : "←") +\(offset) µs \(bytes.prefix(8).map { String(format: "%02x", $0) }.joined())" }
    }

    /// The records of a btsnoop file (the format of RFC 1761 that `BtsnoopWriter` writes).
    static func records(_ path: String) throws -> [Record] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func word(_ at: Int) -> UInt32 { data[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        func long(_ at: Int) -> Int64 { Int64(bitPattern: data[at..<at + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
        var records: [Record] = []
        var at = 16
        var first: Int64?
        while at + 24 <= data.count {
            let length = Int(word(at + 4))
            let stamp = long(at + 16)
            first = first ?? stamp
            records.append(Record(flags: word(at + 8), offset: stamp - (first ?? stamp), bytes: Array(data[at + 24..<min(data.count, at + 24 + length)])))
            at += 24 + length
        }
        return records
    }

    /// Power on, find the thermometer, connect, discover, disconnect — captured on the central's side, with the
    /// thermometer's meter's figures (average current, charge, energy) up to the connection, while connected,
    /// and for 500 ms after the disconnect; and the trace of the whole run in 1 ms bins, as a case's CSV holds it.
    static func run(seed: UInt64) async throws -> (records: [Record], energy: [[Double]], trace: [Double]) {
        var rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path)
        rig.simulation?.timing.seed = seed
        let runtime = try SimulatedRigRuntime(rig: rig)
        #expect(runtime.world.air.clock.isVirtual, "a rig's simulated bench runs on virtual time by default")
        let directory = try TemporaryDirectory.make("hil-replay")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("central.btsnoop").path
        let thermometer = try #require(rig.accessory(named: "thermometer"))
        let meter = try #require(runtime.meter(for: "thermometer"))
        let (energy, trace) = try await runtime.world.air.clock.drive { () async throws -> ([[Double]], [Double]) in
            let start = meter.clock.now
            try await runtime.powerOnAll()
            let writer = try BtsnoopWriter(path: path)
            let transport = CapturingTransport(try runtime.openTransport(named: "central"), writer: writer)
            let central = LEDevice(host: try HCIHost(transport: transport))
            try await central.start()
            let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
            let connected = meter.clock.now
            _ = try await link.gatt.discoverAll()
            _ = try await link.disconnect()
            let disconnected = meter.clock.now
            try await Task.sleep(for: .milliseconds(500), clock: meter.clock)
            await central.close()
            writer.close()
            let end = disconnected.advanced(by: .milliseconds(500))
            let figures = [meter.figures(from: start, to: connected), meter.figures(from: connected, to: disconnected),
                           meter.figures(from: disconnected, to: end)]
                .map { [$0.averageMicroamperes, $0.chargeMicrocoulombs, $0.energyMicrojoules] }
            return (figures, meter.trace.bins(from: start, to: end, binSeconds: 0.001).microamperes)
        }
        await runtime.shutdown()
        return (try records(path), energy, trace)
    }

    @Test func theSameRigAndSeedGiveTheSameCaptureTwice() async throws {
        let (first, firstEnergy, firstTrace) = try await Self.run(seed: 42)
        let (second, secondEnergy, secondTrace) = try await Self.run(seed: 42)
        #expect(firstEnergy == secondEnergy, "the meter's figures differ: \(firstEnergy) vs \(secondEnergy)")
        #expect(firstTrace == secondTrace, "the traces differ in bin \(firstTrace.indices.first { $0 >= secondTrace.count || firstTrace[$0] != secondTrace[$0] } ?? firstTrace.count)")
        #expect(firstTrace.count > 500 && Set(firstTrace).count > 2, "the trace holds a run's bins, sleeping and not")
        #expect(firstEnergy.allSatisfy { $0[1] > 0 }, "each part draws charge: \(firstEnergy)")
        #expect(first.count > 40, "a connect and a discovery take more than \(first.count) packets")
        #expect(first.count == second.count)
        // Offsets are whole microseconds of virtual time from the first record: exactly equal (the wall clock
        // only sets the origin, rounded once).
        for (index, pair) in zip(first, second).enumerated()
        where pair.0.flags != pair.1.flags || pair.0.bytes != pair.1.bytes || pair.0.offset != pair.1.offset {
            Issue.record("record \(index) differs: \(pair.0) vs \(pair.1)")
            break
        }
    }
}
