import Foundation
import HCIPackets
import StrictJSON
import Simulation
import Testing

/// A world described in plain data (JSON), with defaults, and refused when inconsistent.
@Suite struct WorldDescriptionTests {
    @Test func decodesAMinimalRigWithDefaults() throws {
        let json = """
        {"controllers": [
            {"name": "central", "address": "00:5A:1D:00:00:01"},
            {"name": "thermometer", "address": "C0:11:22:33:44:55", "addressType": "random", "rssi": -70,
             "faults": ["refusesConnections"]}
        ],
        "powerSwitch": {"ports": [{"number": 3, "controller": "thermometer"}]},
        "timing": {"timeScale": 0.5}}
        """
        let description = try Self.read(json)
        #expect(description.problems.isEmpty)
        #expect(description.controllers[0].manufacturer.rawValue == 0x05F1)
        #expect(description.controllers[0].leBufferLength == 251 && description.controllers[0].leBufferCount == 8)
        #expect(description.controllers[1].addressType == .random && description.controllers[1].faults == [.refusesConnections])
        #expect(description.powerSwitch?.name == "sim-switch")
        #expect(description.timing.timeScale == 0.5 && description.timing.maximumAdvertisingDelayMilliseconds == 10)
        #expect(description.powerSwitch?.ports == [.init(number: 3, controller: "thermometer")])
    }

    /// A rig's `simulation` block as the rig reader reads it.
    static func read(_ json: String) throws(InputError) -> SimulatedWorldDescription {
        var value = try InputDocument.parse(Array(json.utf8))
        value = InputValue(value.node, path: "simulation")
        return try SimulatedWorldDescription(reading: value)
    }

    static func message(_ json: String) -> String {
        do { _ = try read(json); return "no error" } catch { return error.description }
    }

    @Test(arguments: [
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "addressType": "resolvable"}]}"#,
         #"simulation.controllers[0].addressType: expected "public" or "random", found "resolvable""#),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "fault": ["unresponsive"]}]}"#,
         "simulation.controllers[0].fault: unknown key; did you mean faults?"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "faults": ["unresponsiv"]}]}"#,
         #"simulation.controllers[0].faults[0]: unknown fault "unresponsiv"; did you mean unresponsive?"#),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "rssi": 40}]}"#,
         "simulation.controllers[0].rssi: expected an RSSI in dBm from -127 to 20, found 40"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "leBufferLength": 20}]}"#,
         "simulation.controllers[0].leBufferLength: expected a whole number from 27 to 65535, found 20"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "maxDataLength": 300}]}"#,
         "simulation.controllers[0].maxDataLength: expected a number of octets from 27 to 251 (Core v5.4 Vol 6 Part B §4.5.10), found 300"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "phys": ["1M", "2m"]}]}"#,
         #"simulation.controllers[0].phys[1]: unknown PHY "2m"; did you mean 2M?"#),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "phys": ["2M"]}]}"#,
         #"simulation.controllers[0].phys: expected a list of PHYs from 1M, 2M and coded that includes 1M, found ["2M"]"#),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "addressType": "random"}]}"#,
         #"simulation.controllers[0].address: expected a static random address (top two bits 11, random part neither all 0 nor all 1) for addressType "random", found "00:00:00:00:00:01""#),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01"}, {"name": "a", "address": "00:00:00:00:00:02"}]}"#,
         "simulation.controllers[1].name: 'a' is used twice (first by simulation.controllers[0])"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01"}, {"name": "b", "address": "00:00:00:00:00:01"}]}"#,
         "simulation.controllers[1].address: the public 00:00:00:00:00:01 address is used twice (first by simulation.controllers[0])"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01"}], "powerSwitch": {"ports": [{"number": 1, "controller": "c"}]}}"#,
         "simulation.powerSwitch.ports[0].controller: no simulated controller named 'c' (simulation.controllers has: a)"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01"}], "powerSwitch": {"ports": [{"number": 1, "controller": "a"}, {"number": 1, "controller": "a"}]}}"#,
         "simulation.powerSwitch.ports[1].number: port 1 is listed twice (first by simulation.powerSwitch.ports[0])"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01"}], "powerSwitch": {"ports": [{"number": 256, "controller": "a"}]}}"#,
         "simulation.powerSwitch.ports[0].number: expected a port number from 1 to 255, found 256"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01"}], "timing": {"timeScale": 0}}"#,
         "simulation.timing.timeScale: expected a number from 0.001 to 1000, found 0"),
        (#"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01"}], "timing": {"seed": -1}}"#,
         "simulation.timing.seed: expected a whole number from 0 to 18446744073709551615, found -1"),
        (#"{"controllers": []}"#, "simulation.controllers: expected a non-empty array of simulated controllers, found []"),
    ])
    func badWorldsNameTheFieldAndTheValue(json: String, expected: String) {
        #expect(Self.message(json) == expected)
    }

    @Test func namesEveryProblem() {
        let description = SimulatedWorldDescription(
            controllers: [
                .init(name: "a", address: BDAddress(1)),
                .init(name: "a", address: BDAddress(1), rssi: 40),
                .init(name: "b", address: BDAddress(2), addressType: .random, leBufferLength: 20),
            ],
            powerSwitch: .init(ports: [.init(number: 1, controller: "c"), .init(number: 1, controller: "a")]))
        let problems = description.problems
        #expect(problems.contains { $0.contains("'a' is used twice") })
        #expect(problems.contains { $0.contains("address is used twice") })
        #expect(problems.contains { $0.contains("RSSI 40") })
        #expect(problems.contains { $0.contains("not a static random address") })
        #expect(problems.contains { $0.contains("below the minimum of 27") })
        #expect(problems.contains { $0.contains("port 1 is listed twice") })
        #expect(problems.contains { $0.contains("feeds 'c'") })
        #expect(throws: SimulatedWorldError.self) { _ = try SimulatedWorld(description) }
    }
}
