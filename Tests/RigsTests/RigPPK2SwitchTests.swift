import Foundation
@testable import Rigs
import Testing

/// A rig power switch of kind ppk2: the DUT supply of a PPK2 meter in source mode, powering the accessory that
/// meter measures; every other use refused in one line naming the field.
@Suite struct RigPPK2SwitchTests {
    static let meters = #"[{"name": "p", "kind": "ppk2", "port": "usb:1915:c00a/C4F1A2B3", "mode": "source"}]"#

    /// rigs/simulated.json with the PPK2 `p`, the switch `ppk2-supply` (`entry` added to its kind and name) powering
    /// the thermometer, which `p` measures; then `change`.
    static func rig(switch entry: [String: Any] = ["meter": "p"], meters: String = meters, _ change: @escaping (inout [String: Any]) -> Void = { _ in }) throws -> String {
        try RigMeterTests.withMeters(meters) { object in
            object["powerSwitches"] = [["name": "ppk2-supply", "kind": "ppk2"].merging(entry) { $1 }]
            RigConsistencyTests.setAccessoryKey(&object, 0, "power", ["switch": "ppk2-supply", "port": 1])
            RigConsistencyTests.setAccessoryKey(&object, 0, "meter", "p")
            change(&object)
        }
    }

    @Test func aSourceModePPK2PowersTheAccessoryItMeasures() throws {
        #expect(try Self.rig() == "no error")
    }

    @Test(arguments: [
        (#"[{"name": "p", "kind": "ppk2", "port": "/dev/ttyACM0"}]"#, "p",
         "accessories[0].power.switch: ppk2-supply switches the supply of meter 'p', a ppk2 meter in ampere mode; only a ppk2 in source mode supplies its accessory"),
        (meters, "q", "accessories[0].power.switch: ppk2-supply switches the supply of meter 'q', which the rig's meters do not have (it has: p)"),
    ])
    func aSwitchOfAnotherMeterIsRefused(meters: String, meter: String, expected: String) throws {
        #expect(try Self.rig(switch: ["meter": meter], meters: meters) == expected)
    }

    @Test func theAccessoryMustBeMeasuredByItsSupply() throws {
        let message = try Self.rig { object in
            var accessories = object["accessories"] as? [[String: Any]] ?? []
            accessories[0]["meter"] = nil
            object["accessories"] = accessories
        }
        #expect(message == #"accessories[0].meter: thermometer is powered by ppk2-supply, the supply of meter 'p'; it must be measured by it too ("meter": "p")"#, "\(message)")
    }

    @Test func theAdapterCannotBeOnAPPK2() throws {
        let message = try Self.rig { object in
            var adapter = object["adapter"] as? [String: Any] ?? [:]
            adapter["power"] = ["switch": "ppk2-supply", "port": 1]
            object["adapter"] = adapter
            RigConsistencyTests.setAccessoryKey(&object, 0, "power", ["switch": "sim-switch", "port": 1])
        }
        #expect(message == "adapter.power.switch: ppk2-supply is a PPK2's DUT supply, which powers an accessory (its meter's), not the adapter", "\(message)")
    }

    @Test(arguments: [
        ("{}", "powerSwitches[0].meter: missing; expected the name of a ppk2 meter of the rig's meters, in source mode"),
        (#"{"meter": "p", "port": 2}"#, #"powerSwitches[0].port: unknown key for kind "ppk2" (known: kind, meter, name, verify)"#),
    ])
    func badEntriesNameTheField(entry: String, expected: String) throws {
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])
        #expect(try Self.rig(switch: fields) == expected)
    }
}
