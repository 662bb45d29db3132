@testable import BenchOperations
import Foundation
import Rigs
import Testing
import TestSupport

/// `hil lab export`'s mapping, read back by labgrid 26 itself (scripts/checks/check-labgrid-config: PyYAML, then
/// labgrid's Jinja2-and-YAML reading as labgrid-exporter does it, each class instantiated with its
/// parameters): every switch kind, the adapter forms, names and strings that would be template syntax.
/// labgrid is a peer we did not write, run from the .venv.
@Suite(.tags(.peer)) struct LabgridExportReadBackTests {
    typealias Reading = LabgridResourceReading

    /// Exports `rig`, hands the YAML to labgrid and returns labgrid's reading of its one group.
    static func labgridReading(of export: LabgridExport) async throws -> (yaml: String, resources: [String: Reading]) {
        let directory = try TemporaryDirectory.make("hil-labgrid-export")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("exporter.yaml")
        let yaml = LabgridYAML.render(export)
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let groups = try await LabgridPeer.read(configAt: file.path)
        #expect(Array(groups.keys) == [export.group], "one group, named as the export says: \(groups.keys)")
        return (yaml, groups[export.group] ?? [:])
    }

    @Test func everySwitchKindReadsBackThroughLabgrid() async throws {
        let export = try LabgridExport(rig: try LabgridExportTests.rig())
        let (yaml, resources) = try await Self.labgridReading(of: export)
        #expect(Set(resources.keys) == ["adapter", "adapter-power", "thermo-meter-x-power", "adapter-power-2", "strap-power", "ykush-port2",
                                        "lock-power", "relay-port1"], "\(resources.keys.sorted())")
        // The dongle: the USB device itself (not an interface) by the moniker's IDs and serial.
        let adapter = resources["adapter"]
        #expect(adapter?.cls == "USBFlashableDevice")
        let adapterMatch = LabgridExportTests.match(adapter)
        #expect(adapterMatch["ID_VENDOR_ID"] == "2fe3" && adapterMatch["ID_MODEL_ID"] == "000b" && adapterMatch["ID_SERIAL_SHORT"] == "HIL01",
                "\(adapterMatch)")
        #expect(adapterMatch["DEVTYPE"] == "usb_device" && adapterMatch["SUBSYSTEM"] == "usb", "\(adapterMatch)")
        // Hub ports: uhubctl's USBPowerPort on the hub's first interface (Linux names it BUS-PORTS:1.0, a root
        // hub BUS-0:1.0), which labgrid matches with the hub driver.
        for (name, hubInterface, index) in [("adapter-power", "2-0:1.0", 1), ("thermo-meter-x-power", "1-1.4:1.0", 2), ("adapter-power-2", "1-1.4:1.0", 3)] {
            #expect(resources[name]?.cls == "USBPowerPort", "\(name)")
            #expect(resources[name]?.params["index"] == .integer(index), "\(name)")
            let match = LabgridExportTests.match(resources[name])
            #expect(match["sys_name"] == hubInterface && match["DRIVER"] == "hub" && match["DEVTYPE"] == "usb_interface", "\(name): \(match)")
        }
        // YKUSH: labgrid names the board by serial, which reads back exactly, template characters and all.
        for (name, index) in [("strap-power", "1"), ("ykush-port2", "2")] {
            #expect(resources[name]?.cls == "YKUSHPowerPort", "\(name)")
            #expect(resources[name]?.params["serial"] == .text(SampleLabRig.ykushSerial), "\(name): \(String(describing: resources[name]))")
            #expect(resources[name]?.params["index"] == .text(index), "\(name)")
        }
        // dcttech relays: labgrid's HIDRelay, on the USBRelay's ID (16c0:05df, the one labgrid's HIDRelay itself accepts).
        for (name, index) in [("lock-power", 2), ("relay-port1", 1)] {
            #expect(resources[name]?.cls == "HIDRelay", "\(name)")
            #expect(resources[name]?.params["index"] == .integer(index), "\(name)")
            let match = LabgridExportTests.match(resources[name])
            #expect(match["ID_VENDOR_ID"] == "16c0" && match["ID_MODEL_ID"] == "05df", "\(name): \(match)")
        }
        // What labgrid has no resource for is a comment, and every comment is a Jinja2 line comment (`##`).
        #expect(export.notExported.map(\.part) == ["switch pdu port 1", "switch emulator port 1", "switch only-ykush port 3"])
        #expect(export.notExported.map(\.powers) == ["plug's power", "emu's power", nil])
        for part in export.notExported.map(\.part) { #expect(yaml.contains("## not exported: ") && yaml.contains(part), "\(part)") }
        let comments = yaml.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        #expect(comments.count >= 3 + 8 + 3 && comments.allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("## ") }, "\(comments)")
    }

    @Test func theDongleByLocationAndAUARTReadBackThroughLabgrid() async throws {
        let byLocation = try await Self.labgridReading(of: try LabgridExport(rig: try LabgridExportTests.rig(adapter: "usb:1-1.4.1"))).resources
        #expect(byLocation["adapter"]?.cls == "USBFlashableDevice")
        #expect(LabgridExportTests.match(byLocation["adapter"])["sys_name"] == "1-1.4.1", "the device's sysfs name is its location")
        #expect(LabgridExportTests.match(byLocation["adapter"])["DEVTYPE"] == "usb_device")
        let uart = try await Self.labgridReading(of: try LabgridExport(rig: try LabgridExportTests.rig(adapter: "serial:/dev/ttyACM0,115200"))).resources
        #expect(uart["adapter"]?.cls == "RawSerialPort")
        #expect(uart["adapter"]?.params == ["port": .text("/dev/ttyACM0"), "speed": .integer(115200)])
    }

    @Test func theLabBenchExampleReadsBackThroughLabgrid() async throws {
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/lab-bench-example.json").path)
        let export = try LabgridExport(rig: rig, group: "bench-1")
        let resources = try await Self.labgridReading(of: export).resources
        #expect(export.group == "bench-1")
        #expect(Set(resources.keys) == ["adapter", "adapter-power", "thermometer-power", "heart-rate-power"])
        #expect(resources["thermometer-power"]?.params["index"] == .integer(2))
        #expect(LabgridExportTests.match(resources["thermometer-power"])["sys_name"] == "1-1.4:1.0")
        #expect(resources["adapter-power"]?.params["index"] == .integer(4))
        #expect(resources["heart-rate-power"]?.params == ["serial": .text("YK12345"), "index": .text("1")])
        #expect(export.notExported.isEmpty)
    }
}
