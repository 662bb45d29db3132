import DeviceControl
import Foundation
@testable import Rigs
import Testing

/// A rig's labgrid place and its labgrid switches, as the reader takes them.
@Suite struct RigLabgridTests {
    static func rig(labgrid: String, switchFields: String = #""place": "bench-1""#) -> Data {
        Data("""
        {"name": "lab", "adapter": {"moniker": "usb:0"}, \(labgrid)
         "powerSwitches": [{"name": "dut-outlet", "kind": "labgrid", \(switchFields), "verify": "none"}],
         "accessories": [{"name": "x", "match": {"name": "X"}, "power": {"switch": "dut-outlet", "port": 1}}]}
        """.utf8)
    }

    @Test func aPlaceAndItsSwitchesShareTheCoordinator() throws {
        let rig = try Rig.parse(Self.rig(labgrid: #""labgrid": {"place": "bench-1", "coordinator": "10.0.0.5:20408"},"#))
        #expect(rig.labgrid == LabgridPlace(place: "bench-1", coordinator: "10.0.0.5:20408"))
        #expect(rig.powerSwitches.first?.backend == .labgrid(place: "bench-1", resource: nil, coordinator: "10.0.0.5:20408"))
        let own = try Rig.parse(Self.rig(labgrid: #""labgrid": {"place": "bench-1"},"#,
                                         switchFields: #""place": "pdu-rack", "resource": "outlet-3", "coordinator": "127.0.0.1:30000""#))
        #expect(own.powerSwitches.first?.backend == .labgrid(place: "pdu-rack", resource: "outlet-3", coordinator: "127.0.0.1:30000"))
    }

    @Test func theCoordinatorDefaultsToLabgridsOwn() {
        #expect(LabgridPlace(place: "p", environment: [:]).coordinator == "127.0.0.1:20408")
        #expect(LabgridPlace(place: "p", environment: ["LG_COORDINATOR": "lab:20408"]).coordinator == "lab:20408")
        #expect(LabgridPlace(place: "p", coordinator: "x:1", environment: ["LG_COORDINATOR": "lab:20408"]).coordinator == "x:1")
    }

    @Test(arguments: [
        (#""labgrid": {"place": "bench-1", "cordinator": "127.0.0.1:20408"},"#, #""place": "bench-1""#, "labgrid.cordinator: unknown key"),
        (#""labgrid": {"coordinator": "127.0.0.1:20408"},"#, #""place": "bench-1""#, "labgrid.place: missing"),
        (#""labgrid": {"place": "bench-1", "coordinator": "127.0.0.1"},"#, #""place": "bench-1""#, "labgrid.coordinator: expected a labgrid coordinator address"),
        (#""labgrid": {"place": "bench-1", "coordinator": "127.0.0.1:70000"},"#, #""place": "bench-1""#, "labgrid.coordinator: expected a labgrid coordinator address"),
        ("", #""plase": "bench-1""#, "powerSwitches[0].plase: unknown key"),
        ("", #""place": "bench-1", "hub": "1-1""#, #"powerSwitches[0].hub: unknown key for kind "labgrid""#),
    ])
    func mistakesAreNamedByTheirField(labgrid: String, switchFields: String, expected: String) {
        let message: String
        do { _ = try Rig.parse(Self.rig(labgrid: labgrid, switchFields: switchFields)); message = "no error" } catch { message = error.description }
        #expect(message.contains(expected), "\(message)")
    }
}
