import Foundation
import Testing
import TestSupport

/// `hil dfu` on the simulated bench of rigs/simulated-dfu.json (run as the binary): the slots, an update of
/// imgtool's image, and the exit statuses of a refused command line, a foreign file and an accessory without MCUmgr.
@Suite(.tags(.process)) struct DFUCommandTests {
    static let rig = repositoryRoot.appendingPathComponent("rigs/simulated-dfu.json").path
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures")

    static func dfu(_ arguments: [String], rig: String = rig) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), ["dfu", "sim:central", "--rig", rig] + arguments)
        return (ran.termination?.exitStatus, ran.stdout, ran.stderr)
    }

    static func images(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(object?["images"] as? [[String: Any]], "\(json)")
    }

    @Test("--list --json gives the factory image's slot as the accessory reports it")
    func list() async throws {
        let ran = try await Self.dfu(["--name", "HIL-DFU", "--list", "--json"])
        #expect(ran.status == 0, "\(ran.stderr)")
        let images = try Self.images(ran.stdout)
        #expect(images.count == 1)
        #expect(images.first?["slot"] as? Int == 0 && images.first?["version"] as? String == "1.0.0")
        #expect(images.first?["active"] as? Bool == true && images.first?["confirmed"] as? Bool == true)
        #expect((images.first?["hash"] as? String)?.count == 64)
    }

    @Test("--image --test uploads imgtool's image: the secondary slot holds it, pending, with the digest imgtool verify gave")
    func updateForTest() async throws {
        let image = Self.fixtures.appendingPathComponent("signed-ecdsa-p256.bin").path
        let verify = try String(contentsOf: Self.fixtures.appendingPathComponent("signed-ecdsa-p256.verify.txt"), encoding: .utf8)
        let digest = try #require(verify.split(separator: "\n").first { $0.hasPrefix("Image digest: ") }?.dropFirst(14))
        let ran = try await Self.dfu(["--name", "HIL-DFU", "--image", image, "--test", "--json"])
        #expect(ran.status == 0, "\(ran.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any])
        #expect(object["hash"] as? String == String(digest) && object["match"] as? Bool == true && object["resumedAt"] as? Int == 0)
        #expect(object["bytes"] as? Int == (try Data(contentsOf: URL(fileURLWithPath: image))).count)
        #expect(object["signatures"] as? [String] == ["ECDSA P-256"], "imgtool signed it with a key of `keygen -t ecdsa-p256`")
        let secondary = try Self.images(ran.stdout).first { $0["slot"] as? Int == 1 }
        #expect(secondary?["version"] as? String == "2.0.1.77" && secondary?["hash"] as? String == String(digest))
        #expect(secondary?["pending"] as? Bool == true && secondary?["confirmed"] as? Bool == false)
    }

    @Test("--window 1 awaits each answer; the default four requests in flight move the same image in less time")
    func window() async throws {
        let image = Self.fixtures.appendingPathComponent("signed-ed25519.bin").path
        var seconds: [Double] = []
        for window in [["--window", "1"], []] {
            let ran = try await Self.dfu(["--name", "HIL-DFU", "--image", image, "--json"] + window)
            #expect(ran.status == 0, "\(ran.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any])
            #expect(object["match"] as? Bool == true && object["signatures"] as? [String] == ["Ed25519"])
            seconds.append(try #require(object["seconds"] as? Double))
        }
        #expect(seconds[1] < seconds[0], "window 4 took \(seconds[1]) s, window 1 \(seconds[0]) s")
        let zero = try await Self.dfu(["--name", "HIL-DFU", "--image", image, "--window", "0"])
        #expect(zero.status == 3 && zero.stderr.contains("--window"), "\(zero.stderr)")
    }

    @Test("A wrong command line or a file that is no MCUboot image exits 3 naming it, before any link")
    func usageErrors() async throws {
        let both = try await Self.dfu(["--name", "HIL-DFU", "--list", "--reset"])
        #expect(both.status == 3 && both.stderr.contains("say one of --image FILE, --list or --reset"), "\(both.stderr)")
        let testAlone = try await Self.dfu(["--name", "HIL-DFU", "--list", "--test"])
        #expect(testAlone.status == 3 && testAlone.stderr.contains("--test or --confirm goes with --image"), "\(testAlone.stderr)")
        let foreign = try await Self.dfu(["--name", "HIL-DFU", "--image", Self.fixtures.appendingPathComponent("body.bin").path])
        #expect(foreign.status == 3 && foreign.stderr.contains("not an MCUboot image: magic 0x2c1f1205"), "\(foreign.stderr)")
    }

    @Test("An accessory without MCUmgr, or none advertising the name, is the accessory's failure: exit 1 naming it")
    func accessoryFailures() async throws {
        let simulated = repositoryRoot.appendingPathComponent("rigs/simulated.json").path
        let noSMP = try await Self.dfu(["--name", "HIL-Thermo", "--list"], rig: simulated)
        #expect(noSMP.status == 1 && noSMP.stderr.contains("the peer has no MCUmgr SMP characteristic"), "\(noSMP.stderr)")
        let absent = try await Self.dfu(["--name", "HIL-Nobody", "--list", "--scan-timeout", "1"])
        #expect(absent.status == 1 && absent.stderr.contains("no advertiser matching name \"HIL-Nobody\""), "\(absent.stderr)")
    }
}
