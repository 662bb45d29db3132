import Foundation
import StrictJSON
import Testing
import TestSupport
@testable import DeviceControl

/// A rig's process switch made by the factory and switched for real: `sh` started until ready, then stopped.
@Suite(.tags(.process)) struct PowerSwitchFactoryProcessTests {
    @Test func theFactoryMakesAWorkingProcessSwitch() async throws {
        let description = try PowerSwitchDescriptionTests.load(#"{"powerSwitches": [{"name": "emu", "kind": "process", "argv": ["sh", "-c", "echo ready; exec sleep 30"], "readyPattern": "ready"}]}"#)[0]
        let powerSwitch = try PowerSwitchFactory.makeSwitch(description, probe: NoDevicesProbe())
        #expect(powerSwitch.name == "emu")
        let on = try await powerSwitch.on()
        guard case .verified(let evidence) = on.verification else { Issue.record("not verified: \(on.verification)"); return }
        #expect(evidence.hasPrefix("pid ") && evidence.contains("ready after"))
        let off = try await powerSwitch.off()
        #expect(off.verification == .verified(evidence: "process not running"))
    }
}
