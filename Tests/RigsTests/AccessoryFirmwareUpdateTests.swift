import Foundation
import MCUbootImage
import Rigs
import Testing

/// `firmwareUpdate`: what the FirmwareUpdateCampaign reads of an accessory that is not simulated, and the same read
/// from a simulated accessory's `dfu` block.
@Suite struct AccessoryFirmwareUpdateTests {
    @Test func theLabTwinsUpdaterDeclaresItOnItsUsbRig() throws {
        let rig = try Rig.load(path: RigTests.root.appendingPathComponent("rigs/checks/kernel-lab-twin-dfu.json").path)
        let updater = try #require(rig.accessory(named: "updater"))
        #expect(updater.simulated == nil)
        #expect(updater.updates == AccessoryFirmwareUpdate(erase: .seconds(2), swap: .seconds(3), boot: .milliseconds(40)))
        // The air it runs on simulates the same firmware with the same times.
        let air = try Rig.load(path: RigTests.root.appendingPathComponent("rigs/checks/kernel-lab-twin.air.json").path)
        let simulated = try #require(air.accessory(named: "updater"))
        #expect(simulated.firmwareUpdate == nil && simulated.updates == updater.updates)
    }

    @Test func aSimulatedDFUBlockSaysTheSameAndTheDefaultsAreItsOwn() throws {
        let rig = try Rig.load(path: RigTests.root.appendingPathComponent("rigs/simulated-dfu.json").path)
        // The rig's dfu block: a 500 ms erase and a 2 s swap; the boot is the accessory's own boot delay; its MCUboot
        // checks signatures, and the campaign signs with the rig's test key.
        let dfu = try #require(rig.accessory(named: "dfu")?.simulated)
        let key = try MCUbootSigningKey(pem: String(contentsOf: RigTests.root.appendingPathComponent("rigs/keys/test-dfu-ecdsa-p256.pem"), encoding: .utf8))
        #expect(rig.accessory(named: "dfu")?.updates
                == AccessoryFirmwareUpdate(erase: .milliseconds(500), swap: .seconds(2), boot: .milliseconds(dfu.bootDelayMilliseconds),
                                           checksSignatures: true, signedWith: key))
        let defaults = try Rig.parse(RigTests.rig(#"[{"name": "x", "match": {"name": "X"}, "firmwareUpdate": {}}]"#))
        #expect(defaults.accessory(named: "x")?.updates == AccessoryFirmwareUpdate(erase: .milliseconds(500), swap: .seconds(2), boot: .zero))
        #expect(try Rig.parse(RigTests.rig(#"[{"name": "x", "match": {"name": "X"}}]"#)).accessory(named: "x")?.updates == nil)
    }

    @Test func aRealAccessorysSignedWithIsReadAndMeansItChecksSignatures() throws {
        let keys = RigTests.root.appendingPathComponent("rigs/keys").path
        let rig = try Rig.parse(RigTests.rig(#"[{"name": "x", "match": {"name": "X"}, "firmwareUpdate": {"signedWith": "\#(keys)/test-dfu-ecdsa-p256.pem"}}]"#))
        let updates = try #require(rig.accessory(named: "x")?.updates)
        #expect(updates.checksSignatures)
        // The private half of the key imgtool getpub printed.
        let publicKey = try MCUbootPublicKey(pem: String(contentsOf: URL(fileURLWithPath: "\(keys)/test-dfu-ecdsa-p256.pub.pem"), encoding: .utf8))
        #expect(updates.signedWith?.publicKey == publicKey)
        let message = RigTests.message(RigTests.rig(#"[{"name": "x", "match": {"name": "X"}, "firmwareUpdate": {"signedWith": "\#(keys)/test-dfu-ecdsa-p256.pub.pem"}}]"#))
        #expect(message.hasPrefix("accessories[0].firmwareUpdate.signedWith: \(keys)/test-dfu-ecdsa-p256.pub.pem: not a PEM ECDSA P-256 private key"), "\(message)")
    }

    @Test(arguments: [
        (#"{"swapMiliseconds": 10}"#, "accessories[0].firmwareUpdate.swapMiliseconds: unknown key; did you mean swapMilliseconds?"),
        (#"{"eraseMilliseconds": -1}"#, "accessories[0].firmwareUpdate.eraseMilliseconds: expected a number of milliseconds from 0 to 600000, found -1"),
    ])
    func aBadBlockIsNamed(block: String, message: String) {
        #expect(RigTests.message(RigTests.rig(#"[{"name": "x", "match": {"name": "X"}, "firmwareUpdate": \#(block)}]"#)) == message)
    }
}
