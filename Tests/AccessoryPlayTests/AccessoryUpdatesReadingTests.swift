import AccessoryPlay
import Foundation
import HCIPackets
import StrictJSON
import Testing

/// A profile's `mcumgr`: the SMP service Zephyr's SMP Bluetooth transport serves, and the image the accessory runs.
@Suite struct AccessoryUpdatesReadingTests {
    static let root = AccessoryProfileReadingTests.root

    func message(_ text: String) -> String? {
        do { _ = try AccessoryProfile(reading: try InputDocument.parse(Array(text.utf8)), directory: Self.root.path); return nil } catch { return error.message }
    }

    /// Zephyr's SMP Bluetooth transport (subsys/mgmt/mcumgr/transport/src/smp_bt.c): service
    /// 8D53DC1D-1DB7-4CD3-868B-8A527460AA84, characteristic DA2E7828-FBCE-4E01-AE9E-261174997C48, written without
    /// response and notified.
    @Test func theShippedProfileServesZephyrsSMPServiceWithoutAdvertisingIt() throws {
        let profile = try AccessoryProfile.read(file: Self.root.appendingPathComponent("profiles/mcumgr-update.json").path)
        let service = try #require(BluetoothUUID("8D53DC1D-1DB7-4CD3-868B-8A527460AA84"))
        let characteristic = try #require(BluetoothUUID("DA2E7828-FBCE-4E01-AE9E-261174997C48"))
        let database = try profile.database()
        let handle = try #require(database.valueHandle(of: characteristic, in: service))
        let declared = try #require(profile.services.last?.characteristics.first)
        #expect(declared.uuid == characteristic && declared.properties == [.writeWithoutResponse, .notify])
        #expect(handle > 0)
        #expect(!profile.advertisedServices.contains(service) && profile.advertisedServices == [BluetoothUUID(UInt16(0x180F))])
        #expect(profile.updates?.running.version.mcumgrString == "1.0.0" && profile.updates?.running.hashMatches == true)
        #expect(profile.updates?.slotSize == 384 * 1024)
    }

    /// An imgtool image as the running one: its hash is the digest `imgtool verify` printed for it.
    @Test func anImageFileRunsWithImgtoolsDigest() throws {
        let fixtures = Self.root.appendingPathComponent("Tests/MCUbootImageTests/Fixtures")
        let verify = try String(contentsOf: fixtures.appendingPathComponent("signed-ecdsa-p256.verify.txt"), encoding: .utf8)
        let digest = try #require(verify.split(separator: "\n").first { $0.hasPrefix("Image digest: ") }.map { String($0.dropFirst(14)) })
        let profile = try AccessoryProfile(reading: try InputDocument.parse(Array(#"""
            {"name": "A", "mcumgr": {"image": "Tests/MCUbootImageTests/Fixtures/signed-ecdsa-p256.bin", "swap_ms": 0}}
            """#.utf8)), directory: Self.root.path)
        let running = try #require(profile.updates?.running)
        #expect(running.hash.map { String(format: "%02x", $0) }.joined() == digest)
        #expect(profile.updates?.timing.swap == .zero && profile.updates?.timing.erase == .milliseconds(500))
    }

    @Test func aBadBlockIsOneLineNamingTheField() {
        #expect(message(#"{"name": "A", "mcumgr": {}}"#) == #"mcumgr: missing the running image: "image" (an imgtool image file) or "version""#)
        #expect(message(#"{"name": "A", "mcumgr": {"version": "1.0.0", "image": "x.bin"}}"#) == "mcumgr.version: give image or version, not both")
        #expect(message(#"{"name": "A", "mcumgr": {"version": "one"}}"#)?.hasPrefix("mcumgr.version: expected an image version") == true)
        #expect(message(#"{"name": "A", "mcumgr": {"version": "1.0.0", "swap": 5}}"#)?.hasPrefix("mcumgr.swap: unknown key") == true)
        #expect(message(#"{"name": "A", "mcumgr": {"version": "1.0.0", "slot_size_kib": 4}}"#)?.hasSuffix("more than the 4 KiB slot") == true)
        #expect(message(#"{"name": "A", "mcumgr": {"image": "profiles/heart-rate.json"}}"#)?.contains("is not an MCUboot image") == true)
        #expect(message(#"{"name": "A", "mcumgr": {"image": "no/such.bin"}}"#)?.hasPrefix("mcumgr.image: cannot read") == true)
        #expect(message(#"{"name": "A", "services": [{"uuid": "8D53DC1D-1DB7-4CD3-868B-8A527460AA84"}], "mcumgr": {"version": "1.0.0"}}"#)?
                .hasSuffix("\"mcumgr\" adds it") == true)
    }
}
