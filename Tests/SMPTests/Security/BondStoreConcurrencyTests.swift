import Foundation
@testable import SMP
import TestSupport
import Testing

/// Several writers on one bond file, each its own `AdapterBondFile` (its own descriptors, as another process
/// would have): no change is lost, because each is merged, under the lock, into what is on the disk then.
/// The lock waits are on a stepped clock nobody advances: no writer here waits for a deadline, and the
/// writers of this process queue behind each other without pauses of their own.
@Suite("AdapterBondFile: writers on one file")
struct BondStoreConcurrencyTests {
    static let writers = 16
    static let bondsEach = 8

    /// Runs `body` with a store directory and options on a stepped clock, shut down afterwards.
    static func withStore(_ body: (String, BondStoreOptions) async throws -> Void) async throws {
        try await BondStoreFixture.withDirectory { directory in
            try await withSteppedTime { time in
                try await body(directory, BondStoreFixture.options(clock: time.clock))
            }
        }
    }

    @Test("16 instances opened before any write, each saving 8 bonds at once: all 128 are kept")
    func concurrentInstances() async throws {
        try await Self.withStore { directory, options in
            var files: [AdapterBondFile] = []
            for _ in 0..<Self.writers {
                files.append(try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: options))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (writer, file) in files.enumerated() {
                    group.addTask {
                        for index in 0..<Self.bondsEach { try await file.save(BondStoreFixture.bond(writer: writer, index: index)) }
                    }
                }
                try await group.waitForAll()
            }
            let expected = Set((0..<Self.writers).flatMap { writer in
                (0..<Self.bondsEach).map { BondStoreFixture.bond(writer: writer, index: $0).peerAddress }
            })
            let onDisk = try BondStoreFixture.bondsOnDisk(files[0].path)
            #expect(onDisk.count == Self.writers * Self.bondsEach)
            #expect(Set(onDisk.map(\.peerAddress)) == expected, "lost: \(expected.subtracting(onDisk.map(\.peerAddress)).count)")
            // Every instance reads the latest version.
            for file in files { #expect(await file.bonds().count == Self.writers * Self.bondsEach) }
        }
    }

    @Test("Instances that open a new store at once share one identity")
    func concurrentCreation() async throws {
        try await Self.withStore { directory, options in
            let identities = try await withThrowingTaskGroup(of: LocalIdentity.self) { group in
                for _ in 0..<Self.writers {
                    group.addTask {
                        try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: options).identity
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(identities.count == Self.writers)
            #expect(Set(identities).count == 1, "\(Set(identities).count) identities drawn for one adapter")
        }
    }

    @Test("A save and a forget from an instance opened long ago keep what others wrote since")
    func staleInstanceMerges() async throws {
        try await Self.withStore { directory, options in
            let early = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: options)
            let other = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: options)
            let x = BondStoreFixture.bond(writer: 1, index: 1), y = BondStoreFixture.bond(writer: 2, index: 2)
            let z = BondStoreFixture.bond(writer: 3, index: 3)
            try await other.save(x)
            try await early.save(y)
            #expect(Set(try BondStoreFixture.bondsOnDisk(early.path).map(\.peerAddress)) == [x.peerAddress, y.peerAddress])
            try await other.save(z)
            #expect(try await early.forget(peer: x.peerAddress))
            #expect(Set(try BondStoreFixture.bondsOnDisk(early.path).map(\.peerAddress)) == [y.peerAddress, z.peerAddress])
            // A forget of a peer another instance removed meanwhile says so, and writes nothing.
            #expect(try await !other.forget(peer: x.peerAddress))
        }
    }

    @Test("Reads see what another instance wrote after this one was opened")
    func readsSeeTheLatestFile() async throws {
        try await Self.withStore { directory, options in
            let reader = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: options)
            let writer = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: options)
            #expect(await reader.bonds().isEmpty)
            let bond = BondStoreFixture.bond(writer: 7, index: 7)
            try await writer.save(bond)
            #expect(await reader.bonds() == [bond])
            #expect(try await writer.forget(peer: bond.peerAddress))
            #expect(await reader.bonds().isEmpty)
        }
    }
}
