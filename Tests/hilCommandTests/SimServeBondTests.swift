import Foundation
import Testing
import TestSupport

/// A bond kept across processes: `hil sim serve` keeps rigs/simulated-secure.json's accessories alive (with
/// their bonds, as flash keeps them), `hil pair` stores our side, and a later `hil connect --gatt` encrypts
/// with the stored LTK and reads the protected value — also after the accessory's power cycle.
///
/// Separate processes on real time: each bound is a process's start-up (and a simulated bench's boot) on a
/// loaded 2-core machine.
@Suite(.tags(.process)) struct SimServeBondTests {
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

extension SimServeBondTests {
    /// `hil advertise --security authenticated --passkey` is an accessory a stack we did not write must pair
    /// with: Bumble's central enters the passkey we display, pairs with LE Secure Connections and reads the
    /// protected value; a wrong passkey is refused with Confirm Value Failed.
    @Test(.tags(.peer)) func aBumbleCentralPairsWithHilAdvertiseSecurity() async throws {
        let python = try await SimServeCommandTests.bumblePython()
        let directory = URL(fileURLWithPath: "/tmp/hil-adv-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let air = "unix:\(directory.appendingPathComponent("air").path)"
        let hil = try ChildProgram.hilBinary()
        let server = try ChildProgram(hil, ["sim", "serve", "--rig", "rigs/simulated.json", "--listen", air], name: "hil sim serve")
        var accessory: ChildProgram?
        do {
            _ = try #require(await server.line(within: .seconds(10)), "no ready line: \(server.standardError)")
            let advertise = try ChildProgram(hil, ["advertise", air, "--name", "HIL-Door", "--gatt", "battery", "--security", "authenticated",
                                                   "--passkey", "123456", "--bonds", directory.appendingPathComponent("bonds").path],
                                             name: "hil advertise")
            accessory = advertise
            let advertising = try #require(await advertise.line(within: .seconds(10)), "\(advertise.standardError)")
            #expect(advertising.text.hasPrefix("advertising \"HIL-Door\""), "\(advertising.text)")
            let central = repositoryRoot.appendingPathComponent("scripts/peers/bumble-secure-central.py").path
            let wrong = try await runToCompletion(python, [central, air, "--name", "HIL-Door", "--method", "passkey", "--passkey", "654321",
                                                           "--address", "D4:C1:C2:C3:C4:C5", "--timeout", "15"], timeout: .seconds(30))
            #expect(wrong.status == 1, "\(wrong.output) \(wrong.error)")
            #expect(wrong.output.contains("CONFIRM_VALUE_FAILED"), "\(wrong.output)")
            // Repeated Attempts: the next Pairing Request from that central waits out the interval first. The
            // accessory's interval (1 s of real time, its process's clock) is the thing tested: no event says it is over.
            try await Task.sleep(for: .milliseconds(1100))
            let right = try await runToCompletion(python, [central, air, "--name", "HIL-Door", "--method", "passkey", "--passkey", "123456",
                                                           "--address", "D4:C1:C2:C3:C4:C5", "--read-uuid", "5a5e0002-6b1c-4d9e-9a5f-000000000001",
                                                           "--timeout", "15"], timeout: .seconds(30))
            #expect(right.status == 0, "\(right.output) \(right.error)")
            let json = try #require(right.output.split(separator: "\n").last.map { Data($0.utf8) })
            let result = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], "\(right.output)")
            #expect(result["method"] as? String == "PASSKEY")
            #expect(result["sc"] as? Bool == true)
            #expect(result["authenticated"] as? Bool == true)
            #expect(result["value"] as? String == Array("secret-42".utf8).map { String(format: "%02x", $0) }.joined())
            let paired = await advertise.line(within: .seconds(5)) { $0.hasPrefix("paired ") }
            #expect(paired?.text.contains("Passkey Entry (responder displays), Secure Connections, 16-octet key, bond stored") == true,
                    "\(advertise.standardOutput)")
            #expect(advertise.standardOutput.contains { $0.hasPrefix("passkey    123456 (displayed here") }, "\(advertise.standardOutput)")
            #expect(advertise.standardOutput.contains { $0.contains("pairing failed") && $0.contains("0x04 Confirm Value Failed") },
                    "\(advertise.standardOutput)")
        } catch {
            await accessory?.stop()
            await server.stop()
            throw error
        }
        #expect(await accessory?.signal(SIGTERM) == 0)
        await accessory?.drain()
        #expect(await server.signal(SIGTERM) == 0)
        await server.drain()
    }
}
