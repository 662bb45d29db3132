import Foundation
import Testing
@testable import DeviceControl

@Suite struct ProcessActuatorTests {
    @Test func startsUntilReadyAndStopsTheWholeGroup() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        // The accessory emulator starts a grandchild; off must stop both.
        let actuator = try ProcessActuator(name: "emulated-sensor",
            argv: ["sh", "-c", "sleep 30 & echo $! > \"$0\"; echo 'advertising as Sensor'; wait", marker],
            readyPattern: "advertising", readyDeadline: .seconds(5), stopDeadline: .seconds(2))
        let steps = try await actuator.apply(.on)
        #expect(steps.last?.hasPrefix("ready: output matched 'advertising' after") == true)
        #expect(try await actuator.status().state == .on)
        let confirmation = try await actuator.confirm(.on)
        #expect(confirmation?.hasPrefix("pid ") == true)
        let grandchild = try #require(pid_t(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isRunning(grandchild))

        let offSteps = try await actuator.apply(.off)
        #expect(offSteps.contains { $0.contains("ended (killed by signal 15)") })
        #expect(try await actuator.status().state == .off)
        #expect(try await actuator.confirm(.off) == "process not running")
        try await Task.sleep(for: .milliseconds(100))
        #expect(!isRunning(grandchild), "the grandchild in the same process group must be gone")
    }

    @Test func aProcessThatDiesBeforeReadyIsAnError() async throws {
        let actuator = try ProcessActuator(name: "broken", argv: ["sh", "-c", "echo 'bind: address in use' >&2; exit 3"],
                                           readyPattern: "ready", readyDeadline: .seconds(5))
        let error = await #expect(throws: PowerSwitchError.self) { try await actuator.apply(.on) }
        #expect(error?.message == "broken: `sh` ended (exit 3) before printing 'ready'; its output: bind: address in use")
    }

    @Test func readinessHasADeadline() async throws {
        let actuator = try ProcessActuator(name: "mute", argv: ["sleep", "30"], readyPattern: "ready", readyDeadline: .milliseconds(300))
        let error = await #expect(throws: PowerSwitchError.self) { try await actuator.apply(.on) }
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("did not print 'ready' within 300 ms (killed)") == true)
    }

    @Test func aTermIgnoringProcessIsKilled() async throws {
        let actuator = try ProcessActuator(name: "stubborn", argv: ["sh", "-c", "trap '' TERM; echo up; while true; do sleep 0.1; done"],
                                           readyPattern: "up", stopDeadline: .milliseconds(300))
        _ = try await actuator.apply(.on)
        let steps = try await actuator.apply(.off)
        #expect(steps.contains("still running after 300 ms: sent SIGKILL"))
        #expect(try await actuator.status().state == .off)
    }

    @Test func aPidFileLetsAnotherInstanceStopIt() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("emu-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let starter = try ProcessActuator(name: "emu", argv: ["sleep", "30"], pidFile: pidFile)
        _ = try await starter.apply(.on)
        let pid = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let stopper = try ProcessActuator(name: "emu", argv: ["sleep", "30"], pidFile: pidFile)
        #expect(try await stopper.status() == PowerStatus(state: .on, detail: "pid \(pid) running"))
        let steps = try await stopper.apply(.off)
        #expect(steps.first == "sent SIGTERM to process group \(pid)")
        #expect(!FileManager.default.fileExists(atPath: pidFile))
        _ = try await starter.apply(.off)
    }

    @Test func badConfigurationIsRejected() {
        #expect(throws: PowerSwitchError.self) { try ProcessActuator(name: "x", argv: []) }
        #expect(throws: PowerSwitchError.self) { try ProcessActuator(name: "x", argv: ["true"], readyPattern: "(") }
    }
}

/// Alive and not a zombie (an orphan's zombie lingers until init reaps it).
func isRunning(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != "Z" && state != "X"
}
