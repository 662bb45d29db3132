import Foundation
@testable import HCIPackets
@testable import SMP
import TestSupport
import Testing

/// An adapter's bond file: created 0600 with a random static identity (Core v5.4 Vol 6 Part B §1.3.2.1)
/// that survives reopening, bonds saved and forgotten, replaced whole by a rename, and a damaged file
/// named in the error and never overwritten.
@Suite("AdapterBondFile")
struct BondFileTests {
    static let adapter = "usb:0A12:0001/1"

    static func bond(_ peer: String, keyByte: UInt8 = 0x20) throws -> Bond {
        Bond(peerAddress: try #require(BDAddress(peer)), peerAddressType: .random, peerIdentityResolvingKey: Array(0x01...0x10),
             longTermKey: LongTermKey(key: Array(keyByte..<keyByte + 16), ediv: 0x1234, random: 0x0102_0304_0506_0708),
             localLongTermKey: LongTermKey(key: Array(0x40...0x4F), ediv: 0xBEEF, random: 0xFFFF_0000_FFFF_0000),
             keySize: 16, authenticated: true, secureConnections: false, method: "passkey")
    }

    /// The permission bits of the file at `path`.
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o777
    }

    static func withDirectory(_ body: (String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory.make("bonds")
        defer { TemporaryDirectory.remove(directory) }
        try await body(directory.path)
    }

    /// The file of `adapter` in `directory`, its lock waits on a stepped clock of the test's.
    static func open(_ directory: String, _ adapter: String = adapter) async throws -> AdapterBondFile {
        try await AdapterBondFile(directory: directory, adapter: adapter, options: BondStoreFixture.options())
    }

    @Test("A new file is mode 0600 with a random static identity that is the same when reopened")
    func newFile() async throws {
        try await Self.withDirectory { directory in
            let file = try await Self.open(directory)
            #expect(Self.mode(file.path) == 0o600)
            let identity = await file.identity
            #expect(identity.addressType == .random)
            // A static device address: the two most significant bits are 1, the rest neither all 0 nor all 1.
            #expect(identity.address.bigEndianBytes[0] >> 6 == 0b11)
            #expect(identity.address.value & 0x3FFF_FFFF_FFFF != 0 && identity.address.value & 0x3FFF_FFFF_FFFF != 0x3FFF_FFFF_FFFF)
            #expect(identity.identityResolvingKey.count == 16)
            #expect(try await Self.open(directory).identity == identity)
            #expect(try await AdapterBondFile(opening: file.path).identity == identity)
            // Another adapter draws its own identity.
            #expect(try await Self.open(directory, "sim:central").identity != identity)
        }
    }

    @Test("Saved bonds are read back; forgotten ones are gone")
    func saveAndForget() async throws {
        try await Self.withDirectory { directory in
            let file = try await Self.open(directory)
            let first = try Self.bond("F0:12:34:56:78:9A"), second = try Self.bond("00:1B:DC:07:32:EF", keyByte: 0x60)
            try await file.save(first)
            try await file.save(second)
            #expect(Self.mode(file.path) == 0o600)
            #expect(try await AdapterBondFile(opening: file.path).bonds() == [first, second])
            #expect(try await file.forget(peer: first.peerAddress))
            #expect(try await !file.forget(peer: first.peerAddress))
            #expect(try await AdapterBondFile(opening: file.path).bonds() == [second])
        }
    }

    @Test("Saving a bond with the same peer replaces the old one")
    func saveReplaces() async throws {
        try await Self.withDirectory { directory in
            let file = try await Self.open(directory)
            let old = try Self.bond("F0:12:34:56:78:9A"), other = try Self.bond("00:1B:DC:07:32:EF")
            var new = try Self.bond("F0:12:34:56:78:9A", keyByte: 0x90)
            new.method = "numeric-comparison"
            try await file.save(old)
            try await file.save(other)
            try await file.save(new)
            let bonds = try await AdapterBondFile(opening: file.path).bonds()
            #expect(bonds.count == 2)
            #expect(bonds.contains(new) && bonds.contains(other) && !bonds.contains(old))
        }
    }

    @Test("Saves and forgets leave no temporary file beside the bond file")
    func noTemporaryFiles() async throws {
        try await Self.withDirectory { directory in
            let file = try await Self.open(directory)
            for index in 0..<5 { try await file.save(try Self.bond("F0:12:34:56:78:9\(index)")) }
            _ = try await file.forget(peer: try #require(BDAddress("F0:12:34:56:78:93")))
            // The bond file, and the lock file writers take (empty: the kernel keeps the lock, not the file).
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            let name = (file.path as NSString).lastPathComponent
            #expect(names == [name, name + ".lock"])
        }
    }

    @Test("The JSON names its fields readably")
    func readableKeys() async throws {
        try await Self.withDirectory { directory in
            let file = try await Self.open(directory)
            let bond = try Self.bond("F0:12:34:56:78:9A")
            try await file.save(bond)
            let data = try Data(contentsOf: URL(fileURLWithPath: file.path))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(json["adapter"] as? String == Self.adapter)
            let saved = try #require((json["bonds"] as? [[String: Any]])?.first)
            #expect(saved["peer"] as? String == "F0:12:34:56:78:9A")
            let ltk = try #require(saved["ltk"] as? [String: Any])
            #expect(ltk["ediv"] as? Int == 0x1234)
            let identity = try #require(json["identity"] as? [String: Any])
            #expect(identity["address"] as? String == (await file.identity).address.description)
        }
    }
}
