import Foundation
import Testing
@testable import DeviceControl

/// What `CommandActuator` decides without running anything: its output patterns and its configuration.
/// (Its commands, run as real processes, are `CommandActuatorProcessTests`.)
@Suite struct CommandActuatorTests {
    @Test func ambiguousOutputIsUnknown() throws {
        let pattern = try StatePattern(on: "ON", off: "OFF")
        #expect(pattern.state(of: "ON OFF") == .unknown(reason: "output matches both the on pattern 'ON' and the off pattern 'OFF'"))
        #expect(pattern.state(of: "nothing") == .unknown(reason: "output matches neither the on pattern 'ON' nor the off pattern 'OFF'"))
        #expect(throws: PowerSwitchError.self) { try StatePattern(on: "(", off: "x") }
    }

    @Test func emptyCommandsAreRejected() {
        #expect(throws: PowerSwitchError.self) { try CommandActuator(name: "pdu", on: [], off: ["true"]) }
        #expect(throws: PowerSwitchError.self) { try CommandActuator(name: "pdu", on: ["true"], off: [""]) }
    }
}
