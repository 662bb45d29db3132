import Foundation
import Testing
@testable import DeviceControl

@Suite struct PowerSwitchDescriptionTests {
    static func load(_ json: String) throws -> [PowerSwitchDescription] {
        try PowerSwitchDescription.loadPowerSwitches(fromJSON: Data(json.utf8), source: "rigs/test.json")
    }

    static func message(_ json: String) -> String {
        do { _ = try load(json); return "no error" } catch let error as PowerSwitchError { return error.message } catch { return "\(error)" }
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
         #"rig file rigs/test.json: powerSwitches[0].kind: expected one of "command", "usb-hub", "ykush", "relay", "process", found "pdu""#),
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
         #"rig file rigs/test.json: powerSwitches[0].serail: unknown field for kind "ykush" (known: kind, name, port, ports, serial, verify)"#),
        (#"{"powerSwitches": [{"name": "a", "kind": "relay", "vendor": "sainsmart", "port": 1}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].vendor: expected one of "dcttech", found "sainsmart""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1, "verify": {"devices": ["dongle"]}}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].verify.devices[0]: expected a device: "VID:PID", "VID:PID/SERIAL", a location like "1-1.4.2", or "LOCATION=VID:PID", found "dongle""#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "ports": [1], "port": 2}]}"#,
         #"rig file rigs/test.json: powerSwitches[0].port: give either "port" or "ports", not both"#),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "ports": [1, 1]}]}"#,
         "rig file rigs/test.json: powerSwitches[0].ports[1]: expected each port once, found 1"),
        (#"{"powerSwitches": [{"name": "a", "kind": "ykush", "port": 1}, {"name": "a", "kind": "ykush", "port": 2}]}"#,
         #"rig file rigs/test.json: powerSwitches[1].name: "a" is used twice"#),
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

    @Test func malformedJSONIsReported() {
        #expect(Self.message("{\"powerSwitches\": [").hasPrefix("rig file rigs/test.json: not valid JSON"))
    }

    @Test func loadsFromAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rig-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"powerSwitches": [{"name": "s", "kind": "process", "argv": ["sleep", "1"]}], "other": 1}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try PowerSwitchDescription.loadPowerSwitches(fromRigFile: path).map(\.name) == ["s"])
        let error = #expect(throws: PowerSwitchError.self) { try PowerSwitchDescription.loadPowerSwitches(fromRigFile: path + ".missing") }
        #expect(error?.message == "rig file \(path).missing: cannot be read (no such file)")
        #expect(error?.isUsageError == true)
    }

    @Test func theFactoryMakesAWorkingProcessSwitch() async throws {
        let description = try Self.load(#"{"powerSwitches": [{"name": "emu", "kind": "process", "argv": ["sh", "-c", "echo ready; exec sleep 30"], "readyPattern": "ready"}]}"#)[0]
        let powerSwitch = try PowerSwitchFactory.makeSwitch(description, probe: NoDevicesProbe())
        #expect(powerSwitch.name == "emu")
        let on = try await powerSwitch.on()
        guard case .verified(let evidence) = on.verification else { Issue.record("not verified: \(on.verification)"); return }
        #expect(evidence.hasPrefix("pid ") && evidence.contains("ready after"))
        let off = try await powerSwitch.off()
        #expect(off.verification == .verified(evidence: "process not running"))
    }
}

struct NoDevicesProbe: USBPresenceProbe {
    func presentDevices() async throws -> [USBPresence] { [] }
}
