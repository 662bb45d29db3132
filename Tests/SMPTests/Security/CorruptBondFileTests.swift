import Foundation
@testable import HCIPackets
@testable import SMP
import TestSupport
import Testing

/// A bond file that does not parse is an error naming its path, and stays byte for byte as it was: the
/// bonds in it are not lost to a rewrite.
@Suite("AdapterBondFile: damaged files")
struct CorruptBondFileTests {
    /// A bond file as a person would write it.
    static func document(peer: String = "F0:12:34:56:78:9A", key: String = "000102030405060708090a0b0c0d0e0f") -> String {
        """
        {
          "adapter": "sim:central",
          "identity": {"address": "C3:11:22:33:44:55", "type": "random", "irk": "00112233445566778899aabbccddeeff"},
          "bonds": [
            {"peer": "\(peer)", "peerType": "random", "ltk": {"key": "\(key)", "ediv": 4660, "rand": "deadbeef01"},
             "keySize": 16, "authenticated": true, "secureConnections": false, "method": "passkey"}
          ]
        }
        """
    }

    @Test("The hand-written file reads")
    func wellFormed() async throws {
        let directory = try TemporaryDirectory.make("bonds")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("sim_central.json").path
        try Self.document().write(toFile: path, atomically: false, encoding: .utf8)
        let file = try AdapterBondFile(opening: path)
        let bond = try #require(await file.bonds().first)
        #expect(bond.peerAddress == BDAddress("F0:12:34:56:78:9A"))
        #expect(bond.longTermKey?.ediv == 4660)
        #expect(bond.longTermKey?.random == 0xDE_ADBE_EF01)
        #expect(await file.identity.address == BDAddress("C3:11:22:33:44:55"))
    }

    @Test("A damaged file is an error naming its path, and is left untouched", arguments: [
        ("truncated JSON", String(document().prefix(120))),
        ("an LTK of 15 octets", document(key: "000102030405060708090a0b0c0d0e")),
        ("an address that is not one", document(peer: "F0:12:34:56:78")),
    ])
    func damaged(what: String, text: String) async throws {
        let directory = try TemporaryDirectory.make("bonds")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent(AdapterBondFile.fileName(for: "sim:central")).path
        let original = Data(text.utf8)
        try original.write(to: URL(fileURLWithPath: path))
        let options = BondStoreFixture.options()
        for open in [{ try await AdapterBondFile(directory: directory.path, adapter: "sim:central", options: options) },
                     { try AdapterBondFile(opening: path, options: options) }] {
            let error = await #expect(throws: SecurityError.self, "\(what)") { _ = try await open() }
            #expect(error?.description.contains(path) == true, "\(what): \(error?.description ?? "")")
        }
        let listed = BondDirectory(path: directory.path).files()
        #expect(listed.count == 1)
        if case .failure(let error) = listed.first { #expect(error.description.contains(path)) } else { Issue.record("\(what) listed as readable") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }
}
