@testable import BenchOperations
import Foundation
import Rigs
import Testing
import TestSupport

/// `hil lab export`'s mapping, read back by labgrid 26 itself (scripts/check-labgrid-config: PyYAML, then
/// labgrid's Jinja2-and-YAML reading as labgrid-exporter does it, each class instantiated with its
/// parameters): every switch kind, the adapter forms, names and strings that would be template syntax.
@Suite struct LabgridExportTests {
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

    static func rig(adapter: String = "usb:2fe3:000b/HIL01") throws -> Rig {
        try Rig.parse(Data(SampleLabRig.json(adapter: adapter).utf8))
    }

    /// A udev `match` as labgrid holds it (labgrid adds its own entries, such as SUBSYSTEM).
    static func match(_ reading: Reading?) -> [String: String] {
        if case .mapping(let match)? = reading?.params["match"] { return match }
        return [:]
    }

    @Test func everySwitchKindReadsBackThroughLabgrid() async throws {
        let export = try LabgridExport(rig: try Self.rig())
        let (yaml, resources) = try await Self.labgridReading(of: export)
        #expect(Set(resources.keys) == ["adapter", "adapter-power", "thermo-meter-x-power", "adapter-power-2", "strap-power", "ykush-port2",
                                        "lock-power", "relay-port1"], "\(resources.keys.sorted())")
        // The dongle: the USB device itself (not an interface) by the moniker's IDs and serial.
        let adapter = resources["adapter"]
        #expect(adapter?.cls == "USBFlashableDevice")
        let adapterMatch = Self.match(adapter)
        #expect(adapterMatch["ID_VENDOR_ID"] == "2fe3" && adapterMatch["ID_MODEL_ID"] == "000b" && adapterMatch["ID_SERIAL_SHORT"] == "HIL01",
                "\(adapterMatch)")
        #expect(adapterMatch["DEVTYPE"] == "usb_device" && adapterMatch["SUBSYSTEM"] == "usb", "\(adapterMatch)")
        // Hub ports: uhubctl's USBPowerPort on the hub's first interface (Linux names it BUS-PORTS:1.0, a root
        // hub BUS-0:1.0), which labgrid matches with the hub driver.
        for (name, hubInterface, index) in [("adapter-power", "2-0:1.0", 1), ("thermo-meter-x-power", "1-1.4:1.0", 2), ("adapter-power-2", "1-1.4:1.0", 3)] {
            #expect(resources[name]?.cls == "USBPowerPort", "\(name)")
            #expect(resources[name]?.params["index"] == .integer(index), "\(name)")
            let match = Self.match(resources[name])
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
            let match = Self.match(resources[name])
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
        let byLocation = try await Self.labgridReading(of: try LabgridExport(rig: try Self.rig(adapter: "usb:1-1.4.1"))).resources
        #expect(byLocation["adapter"]?.cls == "USBFlashableDevice")
        #expect(Self.match(byLocation["adapter"])["sys_name"] == "1-1.4.1", "the device's sysfs name is its location")
        #expect(Self.match(byLocation["adapter"])["DEVTYPE"] == "usb_device")
        let uart = try await Self.labgridReading(of: try LabgridExport(rig: try Self.rig(adapter: "serial:/dev/ttyACM0,115200"))).resources
        #expect(uart["adapter"]?.cls == "RawSerialPort")
        #expect(uart["adapter"]?.params == ["port": .text("/dev/ttyACM0"), "speed": .integer(115200)])
    }

    @Test(arguments: ["usb:0", "usb:2fe3:000b#1", "hci-socket:0", "unix:/tmp/bt-server-le", "tcp-client:127.0.0.1:6402"])
    func anAdapterNoUdevMatchCanHoldIsANote(moniker: String) throws {
        let export = try LabgridExport(rig: try Self.rig(adapter: moniker))
        #expect(!export.resources.contains { $0.name == "adapter" })
        #expect(export.notExported.first?.part == "adapter \(moniker)", "\(export.notExported)")
        #expect(LabgridYAML.render(export).contains("## not exported: adapter \(moniker): "))
    }

    @Test func theLabBenchExampleReadsBackThroughLabgrid() async throws {
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/lab-bench-example.json").path)
        let export = try LabgridExport(rig: rig, group: "bench-1")
        let resources = try await Self.labgridReading(of: export).resources
        #expect(export.group == "bench-1")
        #expect(Set(resources.keys) == ["adapter", "adapter-power", "thermometer-power", "heart-rate-power"])
        #expect(resources["thermometer-power"]?.params["index"] == .integer(2))
        #expect(Self.match(resources["thermometer-power"])["sys_name"] == "1-1.4:1.0")
        #expect(resources["adapter-power"]?.params["index"] == .integer(4))
        #expect(resources["heart-rate-power"]?.params == ["serial": .text("YK12345"), "index": .text("1")])
        #expect(export.notExported.isEmpty)
    }

    @Test func aSimulatedBenchHasNothingToExport() throws {
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path)
        #expect {
            _ = try LabgridExport(rig: rig)
        } throws: { error in
            let text = "\(error)"
            return text.contains("has nothing labgrid can export: adapter sim:central (a simulated controller") && !text.contains("\n")
        }
    }

    @Test(arguments: ["a/b", "bench 1", "", "bench*"])
    func aGroupLabgridCannotMatchIsRefused(group: String) throws {
        #expect(throws: LabgridExportError.self) { _ = try LabgridExport(rig: try Self.rig(), group: group) }
    }
}
