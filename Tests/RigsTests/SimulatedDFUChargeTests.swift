import Foundation
import HostCore
import MCUbootImage
import MCUmgr
import Roles
import Rigs
import TestSupport
import Testing

/// A firmware update's flash work on the current model: the `dfu` block's erase and write times (500 ms, and
/// 2 ms a KiB in rigs/simulated-dfu.json) charged at the `current` block's flash currents, the radio's charges
/// set to nothing so the upload's charge is the flash's alone.
@Suite struct SimulatedDFUChargeTests {
    static let erase_uA = 5000.0, write_uA = 4000.0

    static func rig() throws -> Rig {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("rigs/simulated-dfu.json"), encoding: .utf8)
        let current = """
        "current": {"sleep_uA": 0, "advertisingChannel_uC": 0, "connectionEvent_uC": 0, "transmit_uC_per_us": 0,
                    "receive_uC_per_us": 0, "boot_uC": 0, "flashErase_uA": \(erase_uA), "flashWrite_uA": \(write_uA)},
        "dfu": {
        """
        #expect(text.components(separatedBy: "\"dfu\": {").count == 2, "one dfu block")
        // Parsed from no file, its key files are named from the repository's root.
        let keyed = text.replacingOccurrences(of: "\"keys/", with: "\"\(repositoryRoot.path)/rigs/keys/")
        return try Rig.parse(Data(keyed.replacingOccurrences(of: "\"dfu\": {", with: current).utf8))
    }

    @Test func anUploadChargesItsEraseAndWritesAtTheFlashCurrents() async throws {
        let rig = try Self.rig()
        let runtime = try SimulatedRigRuntime(rig: rig)
        let trace = try #require(runtime.accessories["dfu"]?.chargeTrace)
        let bytes = Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures/signed-ecdsa-p256.bin")))
        let charge = try await runtime.world.air.clock.drive { () async throws -> Double in
            try await runtime.powerOnAll()
            let central = LEDevice(host: try HCIHost(transport: try runtime.openTransport(named: "central")))
            try await central.start()
            let start = trace.clock.now
            let client = try await SimulatedDFUTests.connect(central, rig)
            let report = try await client.upload(bytes)
            #expect(report.match == true)
            let charge = trace.charge(from: start, to: trace.clock.now)
            await central.close()
            return charge
        }
        await runtime.shutdown()
        // One erase of 0.5 s, then every octet written at 2 ms a KiB.
        let expected = Self.erase_uA * 0.5 + Self.write_uA * 0.002 * Double(bytes.count) / 1024
        #expect(abs(charge - expected) < 1e-6, "\(charge) µC, expected \(expected) µC")
    }
}
