import Foundation
import StrictJSON
import Testing

/// The defects found with generated rig variants (issue 11), each as a rig that must be refused in one
/// line naming the field: ports that are not the switch's, shared ports and controllers, simulated
/// ports feeding another controller.
@Suite struct RigConsistencyTests {
    /// rigs/simulated.json with one change.
    static func simulated(_ change: (inout [String: Any]) -> Void) throws -> String {
        let data = try Data(contentsOf: RigTests.root.appendingPathComponent("rigs/simulated.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        return RigTests.message(try JSONSerialization.data(withJSONObject: object))
    }

    static func setAccessory(_ object: inout [String: Any], _ index: Int, _ key: String, _ field: String, _ value: Any) {
        var accessories = object["accessories"] as? [[String: Any]] ?? []
        var inner = accessories[index][key] as? [String: Any] ?? [:]
        inner[field] = value
        accessories[index][key] = inner
        object["accessories"] = accessories
    }

    static func setAccessoryKey(_ object: inout [String: Any], _ index: Int, _ key: String, _ value: Any) {
        var accessories = object["accessories"] as? [[String: Any]] ?? []
        accessories[index][key] = value
        object["accessories"] = accessories
    }

    @Test(arguments: [4, 7, 255])
    func aPortTheSimulatedSwitchDoesNotHaveIsRefused(port: Int) throws {
        #expect(try Self.simulated { Self.setAccessory(&$0, 0, "power", "port", port) }
                == "accessories[0].power.port: \(port) is not a port of switch sim-switch (ports: 1, 2, 3)")
    }

    @Test func twoAccessoriesOnOnePortAreRefused() throws {
        #expect(try Self.simulated { Self.setAccessory(&$0, 1, "power", "port", 1) }
                == "accessories[1].power: sim-switch port 1 already powers accessories[0] (thermometer)")
    }

    @Test func anAccessoryOnTheAdaptersPortIsRefused() throws {
        #expect(try Self.simulated { Self.setAccessory(&$0, 0, "power", "port", 3) }
                == "accessories[0].power: sim-switch port 3 already powers the adapter (adapter.power)")
    }

    @Test func twoAccessoriesOnOneSimulatedControllerAreRefused() throws {
        #expect(try Self.simulated { Self.setAccessory(&$0, 1, "simulated", "controller", "thermometer") }
                == "accessories[1].simulated.controller: controller 'thermometer' is already used by accessories[0] (thermometer)")
    }

    @Test func anAccessoryOnTheAdaptersControllerIsRefused() throws {
        #expect(try Self.simulated { Self.setAccessory(&$0, 1, "simulated", "controller", "central") }
                == "accessories[1].simulated.controller: controller 'central' is already used by the adapter (adapter.moniker sim:central)")
    }

    @Test func aSimulatedPortFeedingAnotherControllerIsRefused() throws {
        // Swap the two accessories' ports: each port then feeds the other accessory's controller.
        #expect(try Self.simulated {
            Self.setAccessory(&$0, 0, "power", "port", 2)
            Self.setAccessory(&$0, 1, "power", "port", 1)
        } == "accessories[0].power.port: port 2 of sim-switch feeds controller 'heart-rate', not 'thermometer' that this runs on")
    }

    @Test func aSimulatedAdapterNeedsItsController() throws {
        #expect(try Self.simulated { $0["adapter"] = ["moniker": "sim:centrall"] }
                == "adapter.moniker: sim:centrall: no simulated controller named 'centrall' (simulation.controllers has: central, thermometer, heart-rate)")
        #expect(try Self.simulated { $0["simulation"] = nil; $0["accessories"] = [] as [Any]; $0["adapter"] = ["moniker": "sim:central"] }
                == "adapter.moniker: sim:central names a simulated controller, but the rig has no simulation block")
    }

    @Test func aHardwarePortMustBeOneOfTheSwitchsPorts() {
        let rig = #"""
        {"name": "lab", "adapter": {"moniker": "usb:0", "power": {"switch": "hub", "port": 4}},
         "powerSwitches": [{"name": "hub", "kind": "usb-hub", "hub": "1-1.4", "ports": [2, 4]}, {"name": "emu", "kind": "process", "argv": ["x"]}],
         "accessories": [
           {"name": "a", "match": {"name": "A"}, "power": {"switch": "hub", "port": 3}}]}
        """#
        #expect(RigTests.message(Data(rig.utf8)) == "accessories[0].power.port: 3 is not a port of switch hub (ports: 2, 4)")
        let shared = rig.replacingOccurrences(of: #""port": 3}"#, with: #""port": 4}"#)
        #expect(RigTests.message(Data(shared.utf8)) == "accessories[0].power: hub port 4 already powers the adapter (adapter.power)")
        let process = rig.replacingOccurrences(of: #""switch": "hub", "port": 3}"#, with: #""switch": "emu", "port": 2}"#)
        #expect(RigTests.message(Data(process.utf8)) == "accessories[0].power.port: 2 is not a port of switch emu (ports: 1)")
        let fine = rig.replacingOccurrences(of: #""port": 3}"#, with: #""port": 2}"#)
        #expect(RigTests.message(Data(fine.utf8)) == "no error")
    }

    @Test func aSimulatedSwitchPowersOnlySimulatedAccessories() throws {
        #expect(try Self.simulated {
            var accessories = $0["accessories"] as? [[String: Any]] ?? []
            accessories[0]["simulated"] = nil
            $0["accessories"] = accessories
        } == "accessories[0].power.switch: sim-switch is a simulated switch, which powers simulated controllers only; give this accessory a simulated block")
    }
}
