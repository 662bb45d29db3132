import Foundation
import MCUbootImage
import MCUmgr
import Roles
import Rigs
import TestSupport
import Testing

/// Power cuts, resets and link drops in the middle of an update, on the simulated bench's virtual time: the dfu
/// accessory of rigs/simulated-dfu.json comes through as MCUboot promises, and each accessory of
/// rigs/checks/simulated-dfu-faults.json shows its fault.
@Suite struct SimulatedDFUFaultTests {
    static let image = Result { Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/MCUbootImageTests/Fixtures/signed-test-dfu-key.bin"))) }

    static func connect(_ central: LEDevice, _ rig: Rig, _ name: String) async throws -> MCUmgrClient {
        let accessory = try #require(rig.accessory(named: name))
        let link = try await central.connect(matching: accessory.match, scanTimeout: .seconds(5), parameters: rig.connectionParameters)
        _ = try await link.exchangeMTU(offering: 247)
        return try await MCUmgrClient.connect(on: link)
    }

    /// Uploads imgtool's image, tests it and resets the accessory; returns once the link has ended.
    static func testAndReset(_ client: MCUmgrClient) async throws -> MCUbootImage {
        let bytes = try image.get()
        let image = try MCUbootImage(bytes)
        _ = try await client.upload(bytes)
        _ = try await client.test(hash: image.hash)
        try await client.reset()
        _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
        return image
    }

    /// Cuts the accessory's power 1 s into the 2 s swap its reset began (the reset comes 250 ms after its answer,
    /// the boot 20 ms later), and powers it again.
    static func cutDuringSwap(_ runtime: SimulatedRigRuntime, _ name: String) async throws {
        try await Task.sleep(for: .milliseconds(1_270), clock: runtime.world.air.clock)
        let power = try #require(runtime.powerSwitch(for: name))
        _ = try await power.off()
        _ = try await power.on()
    }

    @Test("A power cut during the swap: the next boot finishes it and the new image runs, on test")
    func swapResumesAfterPowerCut() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/simulated-dfu.json") { runtime, central, rig in
            let image = try await Self.testAndReset(try await Self.connect(central, rig, "dfu"))
            try await Self.cutDuringSwap(runtime, "dfu")
            let states = try await Self.connect(central, rig, "dfu").imageStates()
            #expect(states.first == MCUmgrImageState(slot: 0, version: "2.0.1.77", hash: image.hash, active: true))
        }
    }

    @Test("bricks: a power cut during the swap leaves it silent for good")
    func bricks() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/checks/simulated-dfu-faults.json") { runtime, central, rig in
            _ = try await Self.testAndReset(try await Self.connect(central, rig, "bricks"))
            try await Self.cutDuringSwap(runtime, "bricks")
            let accessory = try #require(rig.accessory(named: "bricks"))
            await #expect(throws: RoleError.self) {
                _ = try await central.connect(matching: accessory.match, scanTimeout: .seconds(5), parameters: rig.connectionParameters)
            }
        }
    }

    @Test("self-confirm: the test image is confirmed at boot and stays after the next reset (a good one reverts)")
    func confirmsItself() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/checks/simulated-dfu-faults.json") { _, central, rig in
            let image = try await Self.testAndReset(try await Self.connect(central, rig, "self-confirm"))
            let client = try await Self.connect(central, rig, "self-confirm")
            #expect(try await client.imageStates().first == MCUmgrImageState(slot: 0, version: "2.0.1.77", hash: image.hash, confirmed: true, active: true))
            try await client.reset()
            _ = try await client.link.waitForDisconnection(timeout: .seconds(2))
            #expect(try await Self.connect(central, rig, "self-confirm").imageStates().first?.version == "2.0.1.77")
        }
    }

    /// Uploads half of imgtool's image to `name` (then drops the link), power-cycles it, uploads again: what the
    /// accessory held, and what it answered the second upload's first request with.
    static func resumeAfterPowerCycle(_ rigFile: String, _ name: String) async throws -> (held: Int, firstAnswer: Int?, firstLength: Int?) {
        var result: (Int, Int?, Int?) = (0, nil, nil)
        try await SimulatedRigRuntimeTests.session(rigFile) { runtime, central, rig in
            let bytes = try image.get()
            let client = try await connect(central, rig, name)
            let link = client.link
            var held = 0
            do {
                _ = try await client.upload(bytes) { chunk in
                    if chunk.answered >= bytes.count / 2 { _ = try? await link.disconnect() }
                }
            } catch {
                held = bytes.count / 2
            }
            let power = try #require(runtime.powerSwitch(for: name))
            _ = try await power.cycle(offTime: .milliseconds(100))
            let report = try await connect(central, rig, name).upload(bytes)
            #expect(report.chunks.last?.answered == bytes.count)
            result = (held, report.firstAnswer, report.chunks.first?.length)
        }
        return result
    }

    @Test("After a link drop and a power cycle the upload resumes from the offset the accessory kept")
    func resumesAfterPowerCycle() async throws {
        let (held, firstAnswer, firstLength) = try await Self.resumeAfterPowerCycle("rigs/simulated-dfu.json", "dfu")
        let answer = try #require(firstAnswer)
        #expect(answer >= held && answer != firstLength, "the accessory answered \(answer), its first chunk being \(String(describing: firstLength))")
    }

    @Test("lost-offset: after a power cycle it starts the upload over from 0")
    func losesOffset() async throws {
        let (_, firstAnswer, firstLength) = try await Self.resumeAfterPowerCycle("rigs/checks/simulated-dfu-faults.json", "lost-offset")
        #expect(firstAnswer != nil && firstAnswer == firstLength, "it took the first chunk as a fresh upload's")
    }
}
