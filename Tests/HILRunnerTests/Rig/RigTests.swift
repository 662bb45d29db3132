import Foundation
import Testing
@testable import HCI
@testable import HILRunner

@Suite struct RigTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["rigs/simulated.json", "rigs/simulated-faults.json", "rigs/simulated-wedged-adapter.json"])
    func shippedRigsLoad(path: String) throws {
        let rig = try Rig.load(path: Self.root.appendingPathComponent(path).path)
        #expect(rig.adapter.moniker == "sim:central")
        #expect(!rig.accessories.isEmpty)
        #expect(rig.accessories.allSatisfy { $0.simulated != nil && $0.power != nil })
        #expect(rig.remoteLossReasons == [.connectionTimeout])
        #expect(rig.connectionParameters.intervalMin == 6)
        #expect(rig.connectionParameters.supervisionTimeout == 30)
    }

    @Test func exampleRealBenchAndBtvirtRigsLoad() throws {
        let lab = try Rig.load(path: Self.root.appendingPathComponent("rigs/lab-bench-example.json").path)
        #expect(lab.simulation == nil)
        #expect(lab.adapter.power?.port == 4)
        #expect(lab.accessory(named: "heart-rate")?.match.manufacturer?.rawValue == 89)
        let btvirt = try Rig.load(path: Self.root.appendingPathComponent("rigs/btvirt-bumble.json").path)
        #expect(btvirt.reportsLinkLoss == false)
        #expect(btvirt.localDisconnectReasons == [.remoteUserTerminatedConnection])
    }

    static func rig(_ accessories: String, budgets: String = "{}", moniker: String = "sim:central") -> Data {
        Data("""
        {"name": "t", "adapter": {"moniker": "\(moniker)"},
         "simulation": {"controllers": [{"name": "central", "address": "00:00:00:00:00:01"}, {"name": "a", "address": "C0:00:00:00:00:02", "addressType": "random"}],
                        "powerSwitch": {"name": "sw", "ports": [{"number": 1, "controller": "a"}]}},
         "accessories": \(accessories), "budgets": \(budgets)}
        """.utf8)
    }

    @Test(arguments: [
        (#"[{"name": "x", "match": {"name": "X"}, "power": {"switch": "sw", "port": 0}}]"#, "{}", "accessories[0].power.port: expected 1…255, found 0"),
        (#"[{"name": "x", "match": {"name": "X"}, "power": {"switch": "nope", "port": 1}}]"#, "{}", "accessories[0].power.switch: no power switch named 'nope'"),
        (#"[{"name": "x", "match": {}}]"#, "{}", "accessories[0].match: give a name"),
        (#"[{"name": "x", "match": {"address": "zz"}}]"#, "{}", "accessories[0].match.address: 'zz' is not a BD_ADDR"),
        (#"[{"name": "x", "match": {"name": "X"}, "expectedServices": ["18G0"]}]"#, "{}", "accessories[0].expectedServices[0]: '18G0' is not a UUID"),
        (#"[{"name": "x", "match": {"name": "X"}}, {"name": "x", "match": {"name": "Y"}}]"#, "{}", "accessories[1].name: 'x' is used twice"),
        (#"[{"name": "x", "match": {"name": "X"}, "simulated": {"controller": "b", "name": "X"}}]"#, "{}", "accessories[0].simulated.controller: no simulated controller named 'b'"),
        (#"[{"name": "x", "match": {"name": "X"}, "simulated": {"controller": "a", "name": "X", "services": ["toaster"]}}]"#, "{}", "accessories[0].simulated.services[0]: unknown service 'toaster'"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"stabilityCycles": 0}"#, "budgets.stabilityCycles: expected 1…100000, found 0"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"connectMilliseconds": -5}"#, "budgets.connectMilliseconds: expected a positive number of milliseconds, found -5"),
        (#"[{"name": 5, "match": {"name": "X"}}]"#, "{}", "accessories[0].name: expected String"),
    ])
    func badRigsNameTheFieldAndTheValue(accessories: String, budgets: String, expected: String) {
        #expect { try Rig.parse(Self.rig(accessories, budgets: budgets)) } throws: { error in
            let text = (error as? RigError)?.description ?? ""
            return text.hasPrefix(expected)
        }
    }

    @Test func badMonikerIsNamed() {
        #expect { try Rig.parse(Self.rig("[]", moniker: "bogus")) } throws: { error in
            (error as? RigError)?.description.hasPrefix("adapter.moniker:") == true
        }
    }

    @Test func notJSONIsAClearError() {
        #expect(throws: RigError.self) { try Rig.parse(Data("{ not json".utf8)) }
        #expect { try Rig.load(path: "/nonexistent/rig.json") } throws: { error in
            (error as? RigError)?.description.contains("cannot read") == true
        }
    }
}
