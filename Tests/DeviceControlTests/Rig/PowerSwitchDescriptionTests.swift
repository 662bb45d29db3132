import Foundation
import StrictJSON
import Testing
@testable import DeviceControl

@Suite struct PowerSwitchDescriptionTests {
    /// The `powerSwitches` of a rig's JSON, read as the rig reader reads them (other top-level keys are
    /// the rig's, not the switches', and are not checked here).
    static func load(_ json: String) throws(InputError) -> [PowerSwitchDescription] {
        do throws(InputError) {
            let root = try InputDocument.parse(Array(json.utf8))
            guard case .object(let members) = root.node.value else { throw root.fail("an object") }
            guard let member = members.first(where: { $0.key == "powerSwitches" }) else { return [] }
            return try PowerSwitchDescription.list(reading: InputValue(member.value, path: "powerSwitches"))
        } catch {
            throw error.inFile("rigs/test.json")
        }
    }

    static func message(_ json: String) -> String {
        do { _ = try load(json); return "no error" } catch { return error.description }
    }

    @Test func everyKindDecodes() throws {
        let switches = try Self.load("""
        {"name": "lab-bench-1", "controllers": [{"moniker": "usb:0"}],
         "powerSwitches": [
          {"name": "pdu-outlet-3", "kind": "command", "on": ["pdu", "on", "3"], "off": ["pdu", "off", "3"],
           "status": ["pdu", "status", "3"], "statePattern": {"on": "ON", "off": "OFF"}, "deadlineSeconds": 10,
           "verify": {"devices": ["2fe3:000b"], "deadlineSeconds": 3}},
          {"name": "dongle-port", "kind": "usb-hub", "hub": "1-1.4", "ports": [2, 3], "method": "sysfs", "force": true, "repeat": 2},
          {"name": "ykush-1", "kind": "ykush", "serial": "YK12345", "port": 1},
          {"name": "relay-2", "kind": "relay", "vendor": "dcttech", "serial": "ABCDE", "ports": [2]},
          {"name": "emulated-sensor", "kind": "process", "argv": ["python3", "-m", "sensor"], "readyPattern": "advertising",
           "environment": {"PYTHONUNBUFFERED": "1"}, "pidFile": "/tmp/sensor.pid"}
         ]}
        """)
        #expect(switches.map(\.name) == ["pdu-outlet-3", "dongle-port", "ykush-1", "relay-2", "emulated-sensor"])
        #expect(switches.map(\.kind) == [.command, .usbHub, .ykush, .relay, .process])
        #expect(switches[0].backend == .command(on: ["pdu", "on", "3"], off: ["pdu", "off", "3"], status: ["pdu", "status", "3"],
                                                statePattern: try StatePattern(on: "ON", off: "OFF"), deadline: .seconds(10)))
        #expect(switches[0].verify.devices == [DeviceExpectation("2fe3:000b")!])
        #expect(switches[0].verify.offDeadline == .seconds(3))
        #expect(switches[1].backend == .usbHub(hub: USBLocation("1-1.4")!, ports: [2, 3], method: .sysfs, force: true, repeatOff: 2))
        #expect(switches[2].backend == .ykush(serial: "YK12345", ports: [1]))
        #expect(switches[3].backend == .relay(vendor: "dcttech", serial: "ABCDE", ports: [2]))
        #expect(switches[4].backend == .process(argv: ["python3", "-m", "sensor"], environment: ["PYTHONUNBUFFERED": "1"],
                                                readyPattern: "advertising", readyDeadline: .seconds(10), stopDeadline: .seconds(5),
                                                pidFile: "/tmp/sensor.pid"))
        #expect(switches[1].verify == PowerSwitchDescription.Verify())
    }

    @Test func aRigWithoutPowerSwitchesHasNone() throws {
        #expect(try Self.load(#"{"name": "sim", "bench": "simulated"}"#).isEmpty)
    }

    @Test(arguments: [
        (#"{"powerSwitches": [{"name": "a", "kind": "usb-hub", "hub": "1-1.4", "ports": [2, -2]}]}"#,
         "rig file rigs/test.json: powerSwitches[0].ports[1]: expected a port number from 1 to 255, found -2"),
        (#"{"powerSwitches": [{"name": "a", "kind": "pdu"}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].kind: expected one of "command", "usb-hub", "ykush", "relay", "process", "labgrid", "ppk2", found "pdu""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "usb-hub", "hub": "1-1.x", "port": 2}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].hub: expected a hub location like "1-1.4" (bus-port.port…), found "1-1.x""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "command", "on": "pdu on 3", "off": ["pdu"]}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].on: expected a command line as an array of strings (no shell is used), found "pdu on 3""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "command", "on": ["pdu", 3], "off": ["pdu"]}]}"#,
         "rig file rigs/test.json: powerSwitches[0].on[1]: expected a string, found 3"),
        (#"{"powerSwitches": [{"name": "a", "kind": "command", "off": ["pdu"]}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].on: missing; expected a command line as an array of strings, e.g. ["pdu", "on", "3"]"#),
        (#"{"powerSwitches": [{"name": "a", "kind": "command", "on": ["x"], "off": ["y"], "deadlineSeconds": 0}]}"#,
         "rig file rigs/test.json: powerSwitches[0].deadlineSeconds: expected a number from 0.001 to 600, found 0"),
        (#"{"powerSwitches": [{"name": "a", "kind": "command", "on": ["x"], "off": ["y"], "statePattern": {"on": "(", "off": "x"}}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].statePattern.on: expected a valid regular expression, found "(""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "serail": "YK1"}]}"#,
         "rig file rigs/test.json: powerSwitches[0].serail: unknown key; did you mean serial?"),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "hub": "1-1.4"}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].hub: unknown key for kind "ykush" (known: kind, name, port, ports, serial, verify)"#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "ports": [1, -1000]}]}"#,
         "rig file rigs/test.json: powerSwitches[0].ports[1]: expected a port number from 1 to 255, found -1000"),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "ports": [9223372036854775808]}]}"#,
         "rig file rigs/test.json: powerSwitches[0].ports[0]: expected a port number from 1 to 255, found 9223372036854775808"),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1.5}]}"#,
         "rig file rigs/test.json: powerSwitches[0].port: expected a port number from 1 to 255, found 1.5"),
        (#"{"powerSwitches": [{"name": "a", "kind": "usb-hub", "hub": "1-1.4", "port": 1, "repeat": 1e22}]}"#,
         "rig file rigs/test.json: powerSwitches[0].repeat: expected a whole number from 1 to 10, found 1e22"),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "verify": "never"}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].verify: expected "none" (transitions cannot be verified, and the rig accepts that) or an object like {"devices": ["2fe3:000b"], "deadlineSeconds": 3}, found "never""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "verify": {"device": ["2fe3:000b"]}}]}"#,
         "rig file rigs/test.json: powerSwitches[0].verify.device: unknown key; did you mean devices?"),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "verify": {"deadlineSeconds": -3}}]}"#,
         "rig file rigs/test.json: powerSwitches[0].verify.deadlineSeconds: expected a number from 0.001 to 120, found -3"),
        (#"{"powerSwitches": [{"name": "a", "kind": "relay", "vendor": "sainsmart", "port": 1}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].vendor: expected one of "dcttech", found "sainsmart""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "verify": {"devices": ["dongle"]}}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].verify.devices[0]: expected a device: "VID:PID", "VID:PID/SERIAL", a location like "1-1.4.2", or "LOCATION=VID:PID", found "dongle""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "ports": [1], "port": 2}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].port: give either "port" or "ports", not both"#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "ports": [1, 1]}]}"#,
         "rig file rigs/test.json: powerSwitches[0].ports[1]: expected each port once, found 1"),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1}, {"name": "a", "kind": "ykush", "port": 2}]}"#,
         #"rig file rigs/test.json: powerSwitches[1].name: "a" is used twice (first by powerSwitches[0])"#),
        (#"{"powerSwitches": {"name": "a"}}"#,
         #"rig file rigs/test.json: powerSwitches: expected an array of switch entries, found {"name": "a"}"#),
        (#"{"powerSwitches": ["a"]}"#,
         #"rig file rigs/test.json: powerSwitches[0]: expected an object, found "a""#),
        (#"{"powerSwitches": [{"kind": "ykush", "port": 1}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].name: missing; expected a switch name, e.g. "pdu-outlet-3""#),
    ])
    func errorsNameThePathAndTheValue(json: String, expected: String) {
        #expect(Self.message(json) == expected)
    }

    @Test func malformedJSONIsReportedWithLineAndColumn() {
        #expect(Self.message("{\"powerSwitches\": [") == "rig file rigs/test.json: line 1, column 20: expected a JSON value, found the end of the file")
    }

    @Test func verifyNoneAcceptsUnverifiedTransitions() throws {
        let switches = try Self.load(#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "verify": "none"}, {"name": "b", "kind": "ykush", "port": 2}]}"#)
        #expect(switches[0].verify == PowerSwitchDescription.Verify(devices: [], acceptsUnverified: true))
        #expect(switches[1].verify.acceptsUnverified == false)
    }

    @Test func portsAreWhatAPowerReferenceMayName() throws {
        let switches = try Self.load(#"{"powerSwitches": [{"name": "a", "kind": "usb-hub", "hub": "1-1.4", "ports": [4, 2]}, {"name": "b", "kind": "process", "argv": ["x"]}]}"#)
        #expect(switches.map(\.ports) == [[4, 2], [1]])
    }
}

struct NoDevicesProbe: USBPresenceProbe {
    func presentDevices() async throws -> [USBPresence] { [] }
}
