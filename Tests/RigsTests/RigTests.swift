import DeviceControl
import Foundation
@testable import Roles
import StrictJSON
@testable import Rigs
import Testing
import TestSupport

@Suite struct RigTests {
    static let root = repositoryRoot

    /// Every rig the package ships (CI runs them all).
    static let shippedRigs = ["rigs/simulated.json", "rigs/checks/simulated-faults.json", "rigs/checks/simulated-wedged-adapter.json",
                              "rigs/btvirt-bumble.json", "rigs/rootcanal-bumble.json", "rigs/lab-bench-example.json"]

    @Test(arguments: shippedRigs)
    func everyShippedRigLoads(path: String) throws {
        let rig = try Rig.load(path: Self.root.appendingPathComponent(path).path)
        #expect(!rig.accessories.isEmpty)
        #expect(rig.accessories.allSatisfy { $0.power != nil })
    }

    /// What Bench.lease builds from an accepted rig cannot fail on the rig's content: every switch's
    /// actuator is made (no hardware is touched), every simulated bench is built and every simulated
    /// accessory has its power switch port.
    @Test(arguments: shippedRigs)
    func whatALeaseBuildsFromAnAcceptedRigIsBuilt(path: String) async throws {
        let rig = try Rig.load(path: Self.root.appendingPathComponent(path).path)
        for description in rig.powerSwitches { _ = try PowerSwitchFactory.actuator(for: description) }
        guard rig.simulation != nil else { return }
        let runtime = try SimulatedRigRuntime(rig: rig)
        for accessory in rig.accessories { #expect(runtime.powerSwitch(for: accessory.name) != nil, "\(accessory.name)") }
        await runtime.shutdown()
    }

    @Test(arguments: ["rigs/simulated.json", "rigs/checks/simulated-faults.json", "rigs/checks/simulated-wedged-adapter.json"])
    func shippedSimulatedRigsLoad(path: String) throws {
        let rig = try Rig.load(path: Self.root.appendingPathComponent(path).path)
        #expect(rig.adapter.moniker == "sim:central")
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
        #expect(lab.powerSwitches.map(\.name) == ["thermometer-port", "dongle-port", "strap-ykush"])
        let btvirt = try Rig.load(path: Self.root.appendingPathComponent("rigs/btvirt-bumble.json").path)
        #expect(btvirt.reportsLinkLoss == false)
        #expect(btvirt.localDisconnectReasons == [.remoteUserTerminatedConnection])
        #expect(btvirt.powerSwitches.map(\.kind) == [.process, .process])
        let secure = try #require(btvirt.accessory(named: "bumble-secure")?.security)
        #expect(secure.method == "passkey" && secure.passkey == 123_456 && secure.protection == .authentication)
    }

    @Test func theFaultsRigInjectsEveryFault() throws {
        let rig = try Rig.load(path: Self.root.appendingPathComponent("rigs/checks/simulated-faults.json").path)
        let faults = Dictionary(uniqueKeysWithValues: rig.accessories.map { ($0.name, $0.simulated?.faults) })
        #expect(faults["fading"]??.stopsAdvertisingAfterPowerCycles == 1)
        #expect(faults["dropper"]??.dropsLinkAfterMilliseconds == 150)
        #expect(faults["stubborn"]??.refusesConnections == true)
        #expect(faults["sluggish"]??.slowATTMilliseconds == 250)
        #expect(faults["fragile"]??.rebootsOnWrite == true)
    }

    static func rig(_ accessories: String, budgets: String = "{}", moniker: String = "sim:central") -> Data {
        Data("""
        {"name": "t", "adapter": {"moniker": "\(moniker)"},
         "simulation": {"controllers": [{"name": "central", "address": "00:00:00:00:00:01"}, {"name": "a", "address": "C0:00:00:00:00:02", "addressType": "random"}],
                        "powerSwitch": {"name": "sw", "ports": [{"number": 1, "controller": "a"}]}},
         "accessories": \(accessories), "budgets": \(budgets)}
        """.utf8)
    }

    static func message(_ data: Data) -> String {
        do { _ = try Rig.parse(data); return "no error" } catch { return error.description }
    }

    @Test(arguments: [
        (#"[{"name": "x", "match": {"name": "X"}, "power": {"switch": "sw", "port": 0}}]"#, "{}", "accessories[0].power.port: expected a port number from 1 to 255, found 0"),
        (#"[{"name": "x", "match": {"name": "X"}, "power": {"switch": "nope", "port": 1}}]"#, "{}", "accessories[0].power.switch: no power switch named 'nope' (the rig has: sw)"),
        (#"[{"name": "x", "match": {}}]"#, "{}", "accessories[0].match: give a name, address, service or manufacturer to recognise it by"),
        (#"[{"name": "x", "match": {"address": "zz"}}]"#, "{}", #"accessories[0].match.address: expected a BD_ADDR like "C0:48:49:4C:00:02", found "zz""#),
        (#"[{"name": "x", "match": {"name": "X"}, "expectedServices": ["18G0"]}]"#, "{}", #"accessories[0].expectedServices[0]: expected a service UUID like "180F", found "18G0""#),
        (#"[{"name": "x", "match": {"name": "X"}}, {"name": "x", "match": {"name": "Y"}}]"#, "{}", "accessories[1].name: 'x' is used twice (first by accessories[0])"),
        (#"[{"name": "x", "match": {"name": "X"}, "simulated": {"controller": "b", "name": "X"}}]"#, "{}", "accessories[0].simulated.controller: no simulated controller named 'b' (simulation.controllers has: central, a)"),
        (#"[{"name": "x", "match": {"name": "X"}, "simulated": {"controller": "a", "name": "X", "services": ["toaster"]}}]"#, "{}", "accessories[0].simulated.services[0]: unknown service 'toaster' (known: battery, heart-rate, health-thermometer, device-information)"),
        (#"[{"name": "x", "match": {"name": "X"}, "simulated": {"controller": "a", "name": "X", "services": ["batery"]}}]"#, "{}", "accessories[0].simulated.services[0]: unknown service 'batery'; did you mean battery?"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"stabilityCycles": 0}"#, "budgets.stabilityCycles: expected a whole number from 1 to 100000, found 0"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"stabilityCycles": 1e22}"#, "budgets.stabilityCycles: expected a whole number from 1 to 100000, found 1e22"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"stabilityCycles": 2.5}"#, "budgets.stabilityCycles: expected a whole number from 1 to 100000, found 2.5"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"connectMilliseconds": -5}"#, "budgets.connectMilliseconds: expected a number of milliseconds above 0 and at most 3600000, found -5"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"connectMilliseconds": 0}"#, "budgets.connectMilliseconds: expected a number of milliseconds above 0 and at most 3600000, found 0"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"connectMilliseconds": 3600001}"#, "budgets.connectMilliseconds: expected a number of milliseconds above 0 and at most 3600000, found 3600001"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"supervisionTimeoutMilliseconds": 50}"#, "budgets.supervisionTimeoutMilliseconds: expected a number of milliseconds from 100 to 32000 (Core v5.4 Vol 6 Part B §4.5.2), found 50"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"supervisionTimeoutMilliseconds": 100, "connectionIntervalMilliseconds": 50}"#, "budgets.supervisionTimeoutMilliseconds: the supervision timeout (100 ms) must be larger than twice the connection interval (50 ms) (Core v5.4 Vol 4 Part E §7.8.12)"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"connectionIntervalMilliseconds": 5000}"#, "budgets.connectionIntervalMilliseconds: expected a number of milliseconds from 7.5 to 4000 (Core v5.4 Vol 6 Part B §4.5.1), found 5000"),
        (#"[{"name": "x", "match": {"name": "X"}}]"#, #"{"connectMilisecond": 5}"#, "budgets.connectMilisecond: unknown key; did you mean connectMilliseconds?"),
        (#"[{"name": 5, "match": {"name": "X"}}]"#, "{}", "accessories[0].name: expected the accessory's name, found 5"),
        (#"[{"name": "x", "match": {"name": "X"}, "simulated": {"controller": "a", "name": "X", "faults": {"dropsLink": 5}}}]"#, "{}", "accessories[0].simulated.faults.dropsLink: unknown key; did you mean dropsLinkAfterMilliseconds?"),
        (#"[{"name": "x", "match": {"name": "X"}, "simulated": {"controller": "a", "name": "X", "faults": {"slowATTMilliseconds": -1}}}]"#, "{}", "accessories[0].simulated.faults.slowATTMilliseconds: expected a number of milliseconds above 0 and at most 600000, found -1"),
    ])
    func badRigsNameTheFieldAndTheValue(accessories: String, budgets: String, expected: String) {
        #expect(Self.message(Self.rig(accessories, budgets: budgets)) == expected)
    }

    @Test func badMonikerIsNamed() {
        #expect(Self.message(Self.rig("[]", moniker: "bogus")).hasPrefix("adapter.moniker: "))
    }

    @Test func syntaxErrorsNameTheLineAndColumn() {
        #expect(Self.message(Data("{ not json".utf8)) == "line 1, column 3: expected a string key or '}' in an object, found 'n'")
        let text = "{\n  \"name\": \"x\",\n  \"adapter\": {\"moniker\": \"usb:0\"}\n  \"accessories\": []\n}\n"
        #expect(Self.message(Data(text.utf8)) == "line 4, column 3: expected ',' or '}' after an object member, found '\"'")
    }

    @Test func aMissingFileIsNamed() {
        #expect { try Rig.load(path: "/nonexistent/rig.json") } throws: { error in
            (error as? InputError)?.description == "rig file /nonexistent/rig.json: cannot read it (no such file)"
        }
    }
}
