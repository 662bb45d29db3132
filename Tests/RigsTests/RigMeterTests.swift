import Foundation
import PowerMeters
import Simulation
import StrictJSON
@testable import Rigs
import Testing

/// A rig's `meters` and an accessory's `meter`: each entry read with its defaults, each misuse refused in one
/// line naming the field, and a simulated meter measuring its accessory's current model on the bench's clock.
@Suite struct RigMeterTests {
    /// rigs/simulated.json without its meters (nor its accessories' meters and current blocks), with `meters`
    /// (JSON) and one change.
    static func withMeters(_ meters: String = #"[{"name": "m", "kind": "simulated"}]"#, _ change: @escaping (inout [String: Any]) -> Void) throws -> String {
        let list = try JSONSerialization.jsonObject(with: Data(meters.utf8))
        return try RigConsistencyTests.simulated { object in
            var accessories = object["accessories"] as? [[String: Any]] ?? []
            for index in accessories.indices {
                accessories[index]["meter"] = nil
                var simulated = accessories[index]["simulated"] as? [String: Any] ?? [:]
                simulated["current"] = nil
                accessories[index]["simulated"] = simulated
            }
            object["accessories"] = accessories
            object["meters"] = list
            change(&object)
        }
    }

    @Test func theSimulatedBenchsMetersAreRead() throws {
        let rig = try Rig.load(path: RigTests.root.appendingPathComponent("rigs/simulated.json").path)
        #expect(rig.meters.map(\.name) == ["thermometer-meter", "heart-rate-meter"])
        #expect(rig.meters.allSatisfy { $0.kind == .simulated && $0.port == nil && $0.supplyMillivolts == 3000 })
        #expect(rig.accessories.map(\.meter) == ["thermometer-meter", "heart-rate-meter"])
        #expect(rig.accessories.allSatisfy { $0.simulated?.current == SimulatedCurrentModel() })
    }

    @Test func aPPK2EntryIsReadWithItsDefaults() throws {
        let text = #"[{"name": "p", "kind": "ppk2", "port": "/dev/ttyACM0"}]"#
        #expect(try Self.withMeters(text) { _ in } == "no error")
        let meter = try RigMeter(reading: try #require(try InputDocument.parse(Array(text.utf8)).array().first))
        #expect(meter == RigMeter(name: "p", kind: .ppk2, port: "/dev/ttyACM0", mode: .ampere, supplyMillivolts: 3000))
    }

    @Test func theSimulatedBenchsEnergyBudgetsAreRead() throws {
        let rig = try Rig.load(path: RigTests.root.appendingPathComponent("rigs/simulated.json").path)
        let energy = try #require(rig.accessory(named: "thermometer")?.energy)
        #expect(energy.idleAfterDisconnect == .init(maximumMicroamperes: 400, after: .milliseconds(500), window: .seconds(1)))
        #expect(energy.advertisingEvent == .init(maximumMicrocoulombs: 15, window: .milliseconds(10)))
    }

    @Test(arguments: [
        (#"{"idleAfterDisconnect": {"after_ms": 500}}"#, "accessories[0].energy.idleAfterDisconnect.avg_uA_max: missing; expected a current in µA above 0 and at most 1000000"),
        (#"{"idleAfterDisconect": {"avg_uA_max": 10}}"#, "accessories[0].energy.idleAfterDisconect: unknown key; did you mean idleAfterDisconnect?"),
        (#"{"advertisingEvent": {"charge_uC_max": 0}}"#, "accessories[0].energy.advertisingEvent.charge_uC_max: expected a charge in µC above 0 and at most 1000000, found 0"),
    ])
    func badBudgetsNameTheField(json: String, expected: String) throws {
        let budgets = try JSONSerialization.jsonObject(with: Data(json.utf8))
        #expect(try RigConsistencyTests.simulated { RigConsistencyTests.setAccessoryKey(&$0, 0, "energy", budgets) } == expected)
    }

    @Test func anUnknownMeterIsRefused() throws {
        #expect(try Self.withMeters { RigConsistencyTests.setAccessoryKey(&$0, 0, "meter", "n") }
                == "accessories[0].meter: no meter named 'n' (the rig has: m)")
    }

    @Test func aSimulatedMeterNeedsACurrentModel() throws {
        #expect(try Self.withMeters { RigConsistencyTests.setAccessoryKey(&$0, 0, "meter", "m") }
                == "accessories[0].meter: 'm' is a simulated meter, which measures a simulated accessory's current model; give this accessory a simulated block with a current block")
    }

    @Test func twoAccessoriesOnOneMeterAreRefused() throws {
        #expect(try Self.withMeters {
            for index in 0...1 {
                RigConsistencyTests.setAccessory(&$0, index, "simulated", "current", [String: Any]())
                RigConsistencyTests.setAccessoryKey(&$0, index, "meter", "m")
            }
        } == "accessories[1].meter: meter 'm' already measures accessories[0] (thermometer)")
    }

    @Test(arguments: [
        (#"[{"name": "p", "kind": "ppk2"}]"#, "meters[0].port: missing; a ppk2 meter needs its serial port (/dev/ttyACM0 or usb:1915:c00a/SERIAL)"),
        (#"[{"name": "m", "kind": "simulated", "port": "/dev/ttyACM0"}]"#, #"meters[0].port: unknown key for kind "simulated" (known: kind, name, voltage_mV)"#),
        (#"[{"name": "m", "kind": "simulated"}, {"name": "m", "kind": "simulated"}]"#, "meters[1].name: 'm' is used twice (first by meters[0])"),
        (#"[{"name": "m", "kind": "joulescope"}]"#, #"meters[0].kind: expected "simulated", "ppk2" or "command", found "joulescope""#),
        (#"[{"name": "j", "kind": "command"}]"#, #"meters[0].command: missing; a command meter needs the program that records its CSV, e.g. ["joulescope-csv", "{csv}"]"#),
        (#"[{"name": "j", "kind": "command", "command": ["jls-record", "out.csv"]}]"#, "meters[0].command: no argument holds {csv}, the file the program is to write its trace to"),
        (#"[{"name": "j", "kind": "command", "command": ["rec", "{csv}"], "port": "/dev/ttyACM0"}]"#, #"meters[0].port: unknown key for kind "command" (known: command, kind, name, voltage_mV)"#),
        (#"[{"name": "p", "kind": "ppk2", "port": "/dev/ttyACM0", "command": ["rec", "{csv}"]}]"#, #"meters[0].command: unknown key for kind "ppk2" (known: kind, mode, name, port, voltage_mV)"#),
        (#"[{"name": "m", "kind": "simulated", "voltage_mV": 500}]"#, "meters[0].voltage_mV: expected a number of millivolts from 800 to 5000, found 500"),
    ])
    func badMetersNameTheField(meters: String, expected: String) throws {
        #expect(try Self.withMeters(meters) { _ in } == expected)
    }

    /// rigs/simulated.json's thermometer (a 30 ms boot delay, the default current model) and its 3 V simulated
    /// meter: its boot's 50 µC at power-on, then 2 µA asleep until it advertises after the boot
    /// delay; over its first second it advertises and draws far more.
    @Test func aSimulatedMeterMeasuresItsAccessory() async throws {
        var rig = try Rig.load(path: RigTests.root.appendingPathComponent("rigs/simulated.json").path)
        let index = try #require(rig.accessories.firstIndex { $0.name == "heart-rate" })
        rig.accessories[index].meter = nil
        let runtime = try SimulatedRigRuntime(rig: rig)
        let meter = try #require(runtime.meter(for: "thermometer"))
        #expect(runtime.meter(for: "heart-rate") == nil)
        #expect(meter.supplyVolts == 3)
        let figures = try await runtime.world.air.clock.drive { () async throws -> [CurrentFigures] in
            let start = meter.clock.now
            try await runtime.powerOnAll()
            try await Task.sleep(for: .seconds(1), clock: meter.clock)
            return [meter.figures(from: start, to: start.advanced(by: .milliseconds(30))),
                    meter.figures(from: start.advanced(by: .milliseconds(1)), to: start.advanced(by: .milliseconds(11))),
                    meter.figures(from: start, to: start.advanced(by: .seconds(1)))]
        }
        await runtime.shutdown()
        #expect(abs(figures[0].chargeMicrocoulombs - (50 + 2 * 0.030)) < 1e-9)
        #expect(abs(figures[1].averageMicroamperes - 2) < 1e-9 && figures[1].samples == 1000)
        #expect(figures[2].chargeMicrocoulombs > 50 + 2 + 12 * 20, "at least 20 advertising events of 3 × 4 µC in its first second")
    }
}
