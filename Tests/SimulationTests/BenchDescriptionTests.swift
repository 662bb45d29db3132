import Foundation
import HCI
import Simulation
import Testing

/// A bench described in plain data (JSON), with defaults, and refused when inconsistent.
@Suite struct BenchDescriptionTests {
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
        let description = try JSONDecoder().decode(SimulatedBenchDescription.self, from: Data(json.utf8))
        #expect(description.problems.isEmpty)
        #expect(description.controllers[0].manufacturer.rawValue == 0x05F1)
        #expect(description.controllers[0].leBufferLength == 251 && description.controllers[0].leBufferCount == 8)
        #expect(description.controllers[1].addressType == .random && description.controllers[1].faults == [.refusesConnections])
        #expect(description.powerSwitch?.name == "sim-switch")
        #expect(description.timing.timeScale == 0.5 && description.timing.maximumAdvertisingDelayMilliseconds == 10)
        let again = try JSONDecoder().decode(SimulatedBenchDescription.self, from: JSONEncoder().encode(description))
        #expect(again == description)
    }

    @Test func rejectsAnUnknownAddressType() {
        let json = #"{"controllers": [{"name": "a", "address": "00:00:00:00:00:01", "addressType": "resolvable"}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SimulatedBenchDescription.self, from: Data(json.utf8)) }
    }

    @Test func namesEveryProblem() {
        let description = SimulatedBenchDescription(
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
        #expect(throws: SimulatedBenchError.self) { _ = try SimulatedBench(description) }
    }
}
