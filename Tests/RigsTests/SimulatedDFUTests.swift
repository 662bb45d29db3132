import Foundation
import MCUbootImage
import MCUmgr
import Roles
import Rigs
import TestSupport
import Testing

/// The `dfu` accessory of rigs/simulated-dfu.json: its MCUboot slots over MCUmgr SMP, on the bench's virtual time,
/// and the `dfu` block's reading.
@Suite struct SimulatedDFUTests {
    static func connect(_ central: LEDevice, _ rig: Rig) async throws -> MCUmgrClient {
        let accessory = try #require(rig.accessory(named: "dfu"))
        let link = try await central.connect(matching: accessory.match, scanTimeout: .seconds(5), parameters: rig.connectionParameters)
        _ = try await link.exchangeMTU(offering: 247)
        return try await MCUmgrClient.connect(on: link)
    }

    @Test("It runs its 1.0.0 factory image, takes imgtool's image signed with its key, and after test and a reset boots it unconfirmed")
    func update() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/simulated-dfu.json") { _, central, rig in
            var client = try await Self.connect(central, rig)
            let factory = try await client.imageStates()
            #expect(factory.count == 1 && factory.first?.version == "1.0.0" && factory.first?.active == true && factory.first?.confirmed == true)
            let bytes = Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures/signed-test-dfu-key.bin")))
            let image = try MCUbootImage(bytes)
            let report = try await client.upload(bytes)
            #expect(report.chunks.last?.answered == bytes.count && report.match == true)
            #expect(try await client.test(hash: image.hash).last?.pending == true)
            try await client.reset()
            _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
            client = try await Self.connect(central, rig)
            let states = try await client.imageStates()
            #expect(states.first == MCUmgrImageState(slot: 0, version: "2.0.1.77", hash: image.hash, active: true))
            #expect(states.last?.version == "1.0.0" && states.last?.hash == factory.first?.hash)
        }
    }

    @Test("A dfu block's bad version or misspelt key is refused naming it")
    func badBlocks() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("rigs/simulated-dfu.json"), encoding: .utf8)
        let badVersion = RigTests.message(Data(text.replacingOccurrences(of: "\"version\": \"1.0.0\"", with: "\"version\": \"1.0\"").utf8))
        #expect(badVersion.contains("version '1.0' is not major.minor.revision[+build]"), "\(badVersion)")
        let misspelt = RigTests.message(Data(text.replacingOccurrences(of: "\"eraseMilliseconds\"", with: "\"eraseMiliseconds\"").utf8))
        #expect(misspelt.contains("did you mean eraseMilliseconds?"), "\(misspelt)")
    }
}
