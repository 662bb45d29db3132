import Foundation
import SMP
import Testing
import TestSupport

/// Several `hil` processes writing one bond store at once lose nothing: each change is merged, under the
/// store's lock, into what is on the disk then.
@Suite(.tags(.process)) struct ConcurrentBondWriterTests {
    typealias Commands = BondStoreCommands

    @Test("8 hil bonds import at once into one new store, 16 bonds each: all 128 are kept, under one identity")
    func concurrentImports() async throws {
        let scratch = try TemporaryDirectory.make("hil-bonds")
        defer { TemporaryDirectory.remove(scratch) }
        let (writers, each) = (8, 16)
        let identity = try LocalIdentity.randomStatic()
        var exports: [String] = []
        for writer in 0..<writers {
            let file = try await AdapterBondFile(directory: scratch.appendingPathComponent("export-\(writer)").path,
                                                 adapter: "sim:central", identity: identity)
            try await file.save(contentsOf: (0..<each).map { Commands.bond(writer: writer, index: $0) })
            exports.append(file.path)
        }
        let store = scratch.appendingPathComponent("store").path
        let runs = try await withThrowingTaskGroup(of: Commands.Run.self) { group in
            for export in exports { group.addTask { try await Commands.hil(["bonds", "import", export, "--bonds", store]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for run in runs {
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("imported \(each) bond(s) into sim:central"), "\(run.stdout)")
        }
        let merged = try AdapterBondFile(opening: (store as NSString).appendingPathComponent("sim_central.json"))
        let kept = Set(await merged.bonds().map(\.peerAddress))
        let expected = Set((0..<writers).flatMap { writer in (0..<each).map { Commands.bond(writer: writer, index: $0).peerAddress } })
        #expect(kept.count == writers * each, "lost \(expected.subtracting(kept).count) of \(writers * each)")
        #expect(kept == expected)
        #expect(await merged.identity == identity)
    }

    @Test("Two hil pair at once on one new store both keep their bonds, under one identity")
    func twoPairsAtOnce() async throws {
        let bonds = try TemporaryDirectory.make("hil-bonds")
        defer { TemporaryDirectory.remove(bonds) }
        async let lock = Commands.hil(["pair", "sim:central", "--rig", Commands.rig] + Commands.lock + ["--bonds", bonds.path])
        async let sensor = Commands.hil(["pair", "sim:central", "--rig", Commands.rig, "--name", "HIL-Sensor", "--bonds", bonds.path])
        for ran in try await [lock, sensor] {
            #expect(ran.status == 0, "stderr: \(ran.stderr)")
            #expect(ran.stdout.contains("bonded "), "\(ran.stdout)")
        }
        let listed = try await Commands.hil(["bonds", "list", "--bonds", bonds.path, "--json"])
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["peer"] as? String }) == ["C0:48:49:4C:00:21", "C0:48:49:4C:00:22"], "\(listed.stdout)")
        #expect(Set(entries.compactMap { $0["identity"] as? String }).count == 1)
    }

}
