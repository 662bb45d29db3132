import Foundation
import Testing
import TestSupport

/// A bond kept across processes: `hil sim serve` keeps rigs/simulated-secure.json's accessories alive (with
/// their bonds, as flash keeps them), `hil pair` stores our side, and a later `hil connect --gatt` encrypts
/// with the stored LTK and reads the protected value — also after the accessory's power cycle.
@Suite struct SimServeBondTests {
    @Test func connectEncryptsWithTheBondPairStored() async throws {
        let directory = URL(fileURLWithPath: "/tmp/hil-bond-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let air = "unix:\(directory.appendingPathComponent("air").path)"
        let control = "unix:\(directory.appendingPathComponent("ctl").path)"
        let bonds = directory.appendingPathComponent("bonds").path
        let hil = try ChildProgram.hilBinary()
        let server = try ChildProgram(hil, ["sim", "serve", "--rig", "rigs/simulated-secure.json", "--listen", air, "--control", control],
                                      name: "hil sim serve")
        do {
            let ready = try #require(await server.line(within: .seconds(10)), "no ready line: \(server.standardError)")
            #expect(ready.text.hasPrefix("serving 4 controllers' air"), "\(ready.text)")

            let unpaired = try await runToCompletion(hil, ["connect", air, "--name", "HIL-Lock", "--gatt", "--bonds", bonds])
            #expect(unpaired.status == 0, "\(unpaired.error)")
            #expect(unpaired.output.contains("protected  1 value(s) refused (0x05 Insufficient Authentication)"), "\(unpaired.output)")
            #expect(!unpaired.output.contains("secret-42"))

            let paired = try await runToCompletion(hil, ["pair", air, "--name", "HIL-Lock", "--passkey", "123456", "--bonds", bonds])
            #expect(paired.status == 0, "\(paired.error)")
            #expect(paired.output.contains("bonded     C0:48:49:4C:00:21"), "\(paired.output)")

            let bonded = try await runToCompletion(hil, ["connect", air, "--name", "HIL-Lock", "--gatt", "--bonds", bonds])
            #expect(bonded.status == 0, "\(bonded.error)")
            #expect(bonded.output.contains("encrypted  with the stored bond (passkey, no pairing)"), "\(bonded.output)")
            #expect(bonded.output.contains("secret-42"), "\(bonded.output)")

            for state in ["off", "on"] {
                let switched = try await runToCompletion(hil, ["sim", "power", "--control", control, "lock", state])
                #expect(switched.status == 0, "\(switched.error)")
            }
            let afterCycle = try await runToCompletion(hil, ["connect", air, "--name", "HIL-Lock", "--gatt", "--bonds", bonds])
            #expect(afterCycle.status == 0, "\(afterCycle.error)")
            #expect(afterCycle.output.contains("encrypted  with the stored bond"), "\(afterCycle.output)")
            #expect(afterCycle.output.contains("secret-42"), "\(afterCycle.output)")
        } catch {
            await server.stop()
            throw error
        }
        #expect(await server.signal(SIGTERM) == 0)
        await server.drain()
    }
}
