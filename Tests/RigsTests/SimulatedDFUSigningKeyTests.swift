import Foundation
import MCUbootImage
import MCUmgr
import Rigs
import TestSupport
import Testing

/// The simulated accessory's `dfu.signingKey`: a PEM key path relative to the rig file, read when the rig is loaded
/// (the keys and images are imgtool's, Tests/MCUbootImageTests/Fixtures), and the MCUboot it gives the accessory.
@Suite struct SimulatedDFUSigningKeyTests {
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures")

    /// rigs/simulated-dfu.json written into a new directory with `"signingKey": key` (and `"signedWith"` when
    /// given) instead of its own key pair, and `files` (name → fixture) copied under it; `body` gets the rig file's path.
    static func withRig(key: String, signedWith: String? = nil, files: [String: String] = [:], _ body: (String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory.make("hil-dfu-key")
        defer { TemporaryDirectory.remove(directory) }
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("rigs/simulated-dfu.json"), encoding: .utf8)
        let keys = "\"signingKey\": \"keys/test-dfu-ecdsa-p256.pub.pem\",\n          \"signedWith\": \"keys/test-dfu-ecdsa-p256.pem\""
        let keyed = text.replacingOccurrences(of: keys, with: "\"signingKey\": \"\(key)\"" + (signedWith.map { ", \"signedWith\": \"\($0)\"" } ?? ""))
        #expect(keyed != text)
        let rigFile = directory.appendingPathComponent("rig.json")
        try Data(keyed.utf8).write(to: rigFile)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("keys"), withIntermediateDirectories: true)
        for (name, fixture) in files {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(fixture), to: directory.appendingPathComponent(name))
        }
        try await body(rigFile.path)
    }

    static func loadError(_ path: String) -> String {
        do { _ = try Rig.load(path: path); return "no error" } catch { return error.description }
    }

    @Test("A key path relative to the rig file is read at load: imgtool's image signed with that key verifies with it")
    func keyRead() async throws {
        try await Self.withRig(key: "keys/test.pub.pem", files: ["keys/test.pub.pem": "ecdsa-p256.pub.pem"]) { path in
            let rig = try Rig.load(path: path)
            let key = try #require(rig.accessory(named: "dfu")?.simulated?.dfu?.signingKey)
            let signed = try MCUbootImage(Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("signed-ecdsa-p256.bin"))))
            let other = try MCUbootImage(Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("signed-ecdsa-p256-other-key.bin"))))
            #expect(signed.signatureVerdict(with: key) == .verified)
            #expect(other.signatureVerdict(with: key) != .verified)
        }
    }

    @Test("A missing key file or a file that is no key is one rig error naming the field and the path")
    func badKeyFiles() async throws {
        try await Self.withRig(key: "keys/missing.pub.pem") { path in
            let directory = (path as NSString).deletingLastPathComponent
            #expect(Self.loadError(path) == "rig file \(path): accessories[0].simulated.dfu.signingKey: \(directory)/keys/missing.pub.pem: cannot read it (no such file)")
        }
        try await Self.withRig(key: "keys/image.bin", files: ["keys/image.bin": "unsigned.bin"]) { path in
            let message = Self.loadError(path)
            #expect(message.hasPrefix("rig file \(path): accessories[0].simulated.dfu.signingKey: ") && message.contains("keys/image.bin: not a PEM ECDSA P-256 or Ed25519 key"), "\(message)")
            #expect(!message.contains("\n"))
        }
    }

    @Test("Its MCUboot checks signatures with the key: another key's image is tested, then refused at the reset")
    func refusesAnotherKeysImage() async throws {
        try await Self.withRig(key: "keys/test.pub.pem", files: ["keys/test.pub.pem": "ecdsa-p256.pub.pem"]) { path in
            try await SimulatedRigRuntimeTests.session(rig: try Rig.load(path: path)) { _, central, rig in
                var client = try await SimulatedDFUTests.connect(central, rig)
                let bytes = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("signed-ecdsa-p256-other-key.bin")))
                _ = try await client.upload(bytes)
                #expect(try await client.test(hash: try MCUbootImage(bytes).hash).last?.pending == true)
                try await client.reset()
                _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
                client = try await SimulatedDFUTests.connect(central, rig)
                let states = try await client.imageStates()
                #expect(states.count == 1 && states.first?.version == "1.0.0" && states.first?.active == true && states.first?.confirmed == true)
            }
        }
    }

    @Test("The rig's signedWith is its signingKey's private half: what the campaign signs with it, its MCUboot boots")
    func theRigsKeyPair() throws {
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated-dfu.json").path)
        let dfu = try #require(rig.accessory(named: "dfu")?.simulated?.dfu)
        let signedWith = try #require(dfu.signedWith)
        #expect(signedWith.publicKey == dfu.signingKey)
        let image = try MCUbootImage.make(version: MCUbootVersion(major: 2, minor: 0, revision: 0, build: 0), body: [1, 2, 3], signingKey: signedWith)
        #expect(image.signatureVerdict(with: try #require(dfu.signingKey)) == .verified)
        // imgtool signed this fixture with the same test key: its verdict and ours agree.
        let imgtools = try MCUbootImage(Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("signed-test-dfu-key.bin"))))
        #expect(imgtools.signatureVerdict(with: try #require(dfu.signingKey)) == .verified)
        #expect(try String(contentsOf: Self.fixtures.appendingPathComponent("signed-test-dfu-key.verify-test-dfu.txt"), encoding: .utf8).hasPrefix("Image was correctly validated"))
    }

    @Test("A signedWith that is no private key, or another key than signingKey's, is one rig error naming it")
    func badSignedWith() async throws {
        try await Self.withRig(key: "keys/test.pub.pem", signedWith: "keys/test.pub.pem", files: ["keys/test.pub.pem": "ecdsa-p256.pub.pem"]) { path in
            let message = Self.loadError(path)
            #expect(message.hasPrefix("rig file \(path): accessories[0].simulated.dfu.signedWith: ") && message.contains("keys/test.pub.pem: not a PEM ECDSA P-256 private key"), "\(message)")
        }
        try await Self.withRig(key: "keys/test.pub.pem", signedWith: "keys/signing.pem",
                               files: ["keys/test.pub.pem": "ecdsa-p256.pub.pem", "keys/signing.pem": "signing-ecdsa-p256.pem"]) { path in
            let message = Self.loadError(path)
            #expect(message.hasPrefix("rig file \(path): accessories[0].simulated.dfu.signedWith: ") && message.contains("keys/signing.pem: not the private half of signingKey"), "\(message)")
            #expect(!message.contains("\n"))
        }
    }
}
