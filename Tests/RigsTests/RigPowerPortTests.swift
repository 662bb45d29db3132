@testable import DeviceControl
import Foundation
import EventLoops
import StrictJSON
@testable import Rigs
import Synchronization
import Testing
import TestSupport

/// The harness's power policy: each accessory gets its own switch port, and a transition nobody could
/// see happen is a bench failure unless the rig accepts it (`"verify": "none"`).
@Suite struct RigPowerPortTests {
    /// A switch whose transitions are verified or not, as told; it records what it was asked. Its cycles wait
    /// their off time on `clock`, the test's virtual time (a switch made without one cannot cycle).
    actor FakeSwitch: PowerSwitch {
        nonisolated let name: String
        let verified: Bool
        let clock: LoopClock?
        private(set) var asked: [String] = []

        init(name: String, verified: Bool, clock: LoopClock? = nil) {
            self.name = name
            self.verified = verified
            self.clock = clock
        }

        func on() async throws -> PowerTransition { transition(.on) }
        func off() async throws -> PowerTransition { transition(.off) }
        func state() async throws -> PowerStatus { PowerStatus(state: .on, detail: "fake") }

        func cycle(offTime: Duration) async throws -> PowerTransition {
            guard let clock else { throw PowerSwitchError(.invalidInput, "\(name): a fake switch made without a clock cannot cycle") }
            return try await cycle(offTime: offTime, clock: clock)
        }

        func transition(_ action: PowerAction) -> PowerTransition {
            asked.append(action.description)
            return PowerTransition(switchName: name, action: action,
                                   verification: verified ? .verified(evidence: "1-1.4.2 left") : .unverified(reason: "nothing enumerates behind the port"),
                                   elapsed: .zero, steps: [])
        }
    }

    @Test func anUnverifiedTransitionIsABenchFailure() async throws {
        try await withVirtualTime { clock in
            let port = RigPowerPort(FakeSwitch(name: "outlet-3", verified: false, clock: clock))
            do {
                _ = try await port.off()
                Issue.record("an unverified off was accepted")
            } catch let error as PowerSwitchError {
                #expect(error.kind == .verificationFailed)
                #expect(error.message.hasPrefix("outlet-3 off could not be verified (nothing enumerates behind the port)"))
                #expect(error.message.contains("\"verify\": \"none\""))
            }
            await #expect(throws: PowerSwitchError.self) { _ = try await port.cycle(offTime: .milliseconds(1)) }
        }
    }

    @Test func theRigMayAcceptUnverifiedTransitions() async throws {
        try await withVirtualTime { clock in
            let port = RigPowerPort(FakeSwitch(name: "outlet-3", verified: false, clock: clock), acceptsUnverified: true)
            let off = try await port.off()
            #expect(!off.verification.isVerified)
            let cycle = try await port.cycle(offTime: .milliseconds(1))
            #expect(cycle.verification.description.hasPrefix("unverified"))
            // Off, the off time on the test's clock, on: exactly the off time elapsed.
            #expect(cycle.elapsed == .milliseconds(1), "the cycle took \(cycle.elapsed)")
        }
    }

    @Test func verifiedTransitionsPass() async throws {
        let fake = FakeSwitch(name: "hub port 2", verified: true)
        let port = RigPowerPort(fake)
        #expect(try await port.on().verification.isVerified)
        #expect(try await port.off().verification.isVerified)
        #expect(await fake.asked == ["on", "off"])
    }

    static func rig(_ accessories: String, switches: String) throws -> (Rig, [PowerSwitchDescription]) {
        let json = """
        {"name": "two-ports", "adapter": {"moniker": "usb:0", "power": {"switch": "hub", "port": 4}},
         "accessories": [\(accessories)], "powerSwitches": [\(switches)]}
        """
        let rig = try Rig.parse(Data(json.utf8))
        return (rig, rig.powerSwitches)
    }

    @Test func eachAccessoryGetsItsOwnPort() throws {
        let (rig, switches) = try Self.rig("""
            {"name": "thermo", "match": {"name": "T"}, "power": {"switch": "hub", "port": 2}},
            {"name": "strap", "match": {"name": "S"}, "power": {"switch": "hub", "port": 3}}
            """, switches: #"{"name": "hub", "kind": "usb-hub", "hub": "1-1.4", "ports": [2, 3, 4]}"#)
        let made = Made()
        let ports = try RigPowerPorts(rig: rig, switches: switches) { description in
            made.add(description)
            return FakeSwitch(name: "\(description.name) \(description.ports)", verified: true)
        }
        #expect(ports.accessories["thermo"]?.name == "hub [2]")
        #expect(ports.accessories["strap"]?.name == "hub [3]")
        #expect(ports.adapter?.name == "hub [4]")
        #expect(made.ports.sorted { "\($0)" < "\($1)" } == [[2], [3], [4]])
    }

    @Test func aPortNotOnTheSwitchIsARigError() throws {
        // The rig reader refuses such a file; a rig built in code meets the same check here.
        let (parsed, switches) = try Self.rig(#"{"name": "thermo", "match": {"name": "T"}, "power": {"switch": "hub", "port": 2}}"#,
                                           switches: #"{"name": "hub", "kind": "usb-hub", "hub": "1-1.4", "ports": [2, 3, 4]}"#)
        var rig = parsed
        rig.accessories[0].power?.port = 7
        do {
            _ = try RigPowerPorts(rig: rig, switches: switches) { FakeSwitch(name: $0.name, verified: true) }
            Issue.record("port 7 was accepted")
        } catch let error as InputError {
            #expect(error.description == "accessories[0].power.port: 7 is not a port of switch hub (ports: 2, 3, 4)")
        }
    }

    @Test func verifyNoneIsCarriedToThePort() throws {
        let (rig, loaded) = try Self.rig(#"{"name": "thermo", "match": {"name": "T"}, "power": {"switch": "hub", "port": 2}}"#,
                                               switches: #"{"name": "hub", "kind": "usb-hub", "hub": "1-1.4", "ports": [2, 4]}"#)
        var switches = loaded
        switches[0].verify.acceptsUnverified = true
        let ports = try RigPowerPorts(rig: rig, switches: switches) { FakeSwitch(name: $0.name, verified: false) }
        #expect(ports.accessories["thermo"]?.acceptsUnverified == true)
    }

    final class Made: Sendable {
        private let store = Mutex<[[Int]]>([])
        func add(_ description: PowerSwitchDescription) { store.withLock { $0.append(description.ports) } }
        var ports: [[Int]] { store.withLock { $0 } }
    }
}
