import Foundation
import MCUbootImage
import Support
import Testing
import TestSupport

/// MCUboot's own imgtool judges the images MCUbootImage signs: `imgtool verify -k KEY` (imgtool 2.5.0, from the
/// venv scripts/peers/mcumgr-fixtures-venv makes) accepts an image signed with its test key
/// (Fixtures/signing-ecdsa-p256.pem) given that key's public half, and refuses it given another key or with a
/// signature octet flipped; its digest is ours.
///
/// Separate processes on real time: the venv is made once (pip, a minute or more on a cold cache); imgtool's
/// start-up on a loaded 2-core machine is seconds.
@Suite(.tags(.process)) struct ImgtoolVerifiesSigningTests {
    static func imgtool() async throws -> String {
        let made = try await ChildProcess.run([repositoryRoot.appendingPathComponent("scripts/peers/mcumgr-fixtures-venv").path], deadline: .seconds(540))
        guard made.termination.succeeded else { throw PeerError("scripts/peers/mcumgr-fixtures-venv failed (\(made.termination)): \(made.lastLine)") }
        return made.lastLine + "/imgtool"
    }

    /// imgtool verify's output and whether it exited 0.
    static func verify(_ imgtool: String, _ image: [UInt8], key: String, in directory: URL) async throws -> (text: String, accepted: Bool) {
        let file = directory.appendingPathComponent("image-\(UUID().uuidString.prefix(8)).bin")
        try Data(image).write(to: file)
        let keyPath = try ImgtoolDumpinfo.url(key, "pub.pem").path
        let ran = try await ChildProcess.run([imgtool, "verify", "-k", keyPath, file.path], deadline: .seconds(60))
        #expect(!ran.timedOut, "imgtool verify did not finish within 60 s")
        return (ran.stdout + ran.stderr, ran.termination.succeeded)
    }

    @Test func imgtoolAcceptsOurSignatureWithItsKeyAlone() async throws {
        let imgtool = try await Self.imgtool()
        let directory = try TemporaryDirectory.make("hil-imgtool-verify")
        defer { TemporaryDirectory.remove(directory) }
        let key = try MCUbootSigningTests.imgtoolKey()
        let image = try MCUbootImage.make(version: MCUbootSigningTests.version, body: MCUbootSigningTests.body, signingKey: key)

        let accepted = try await Self.verify(imgtool, image.bytes, key: "signing-ecdsa-p256", in: directory)
        #expect(accepted.accepted && accepted.text.hasPrefix("Image was correctly validated"), "\(accepted.text)")
        #expect(accepted.text.contains("Image digest: \(MCUbootImageTests.hex(image.hash))"), "\(accepted.text)")

        let otherKey = try await Self.verify(imgtool, image.bytes, key: "other-ecdsa-p256", in: directory)
        #expect(!otherKey.accepted && !otherKey.text.contains("correctly validated"), "\(otherKey.text)")

        var flipped = image.bytes
        flipped[flipped.count - 1] ^= 0x01
        let badSignature = try await Self.verify(imgtool, flipped, key: "signing-ecdsa-p256", in: directory)
        #expect(!badSignature.accepted && !badSignature.text.contains("correctly validated"), "\(badSignature.text)")
    }
}
