@testable import DeviceControl
import Foundation
import Testing

@Suite struct USBTopologyRenderingTests {
    /// Stands in for the Bluetooth marking the layer above passes (HILRunner's `.bluetoothAdapters`): the
    /// topology renders whatever marks it is given.
    static let marking = USBDeviceMarking(noun: "Bluetooth adapter", plural: "Bluetooth adapters", jsonKey: "bluetoothAdapter") { device in
        device.deviceClass == 0xE0 ? "class e0/01/01" : nil
    }

    static var topology: USBTopology {
        let perPort = try? HubDescriptor(bytes: HubDescriptorTests.qemuHubPortPower)
        let ganged = try? HubDescriptor(bytes: HubDescriptorTests.gangedHub)
        var root = USBDeviceInfo(location: USBLocation("1")!, id: USBID("1d6b:0002")!, deviceClass: 9)
        root.hub = USBHubInfo(descriptor: try? HubDescriptor(bytes: HubDescriptorTests.xhciRootHubUSB2))
        var hub = USBDeviceInfo(location: USBLocation("1-1")!, id: USBID("0409:55aa")!, speed: .full, deviceClass: 9, product: "QEMU USB Hub")
        hub.hub = USBHubInfo(descriptor: perPort, ports: [1: PortStatus(status: 0x0103, change: 0, superSpeed: false), 2: PortStatus(status: 0x0000, change: 0, superSpeed: false)])
        var gangedHub = USBDeviceInfo(location: USBLocation("1-2")!, id: USBID("05e3:0608")!, speed: .high, deviceClass: 9)
        gangedHub.hub = USBHubInfo(descriptor: ganged)
        let dongle = USBDeviceInfo(location: USBLocation("1-1.1")!, id: USBID("0a12:0001")!, speed: .full,
                                   deviceClass: 0xE0, deviceSubclass: 1, deviceProtocol: 1, serial: "XYZ")
        return USBTopology(devices: [dongle, gangedHub, hub, root], problems: ["permission denied opening /dev/bus/usb/001/009"])
    }

    @Test func treeShowsHubsModesPortsAndAdapters() {
        let tree = Self.topology.renderTree(marking: Self.marking)
        let lines = tree.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("bus 1  1  1d6b:0002") == true)
        #expect(tree.contains("├─ port 1: 1-1  0409:55aa QEMU USB Hub  class 09/00/00  12 Mb/s  hub: 8 ports, per-port (wHubCharacteristics 0x0009)"))
        #expect(tree.contains("│  ├─ port 1 [0x0103 power enable connect]: 1-1.1  0a12:0001  serial XYZ  class e0/01/01  12 Mb/s  ◆ Bluetooth adapter (class e0/01/01)"))
        #expect(tree.contains("│  ├─ port 2 [0x0000 off]: empty"))
        #expect(tree.contains("1-2  05e3:0608  class 09/00/00  480 Mb/s  hub: 4 ports, ganged (wHubCharacteristics 0x00e0)"))
        #expect(tree.contains("Bluetooth adapters: 1-1.1 (0a12:0001, class e0/01/01)"))
        #expect(lines.last == "note: permission denied opening /dev/bus/usb/001/009")
    }

    @Test func jsonCarriesHubFacts() throws {
        let object = try JSONSerialization.jsonObject(with: Self.topology.jsonData(marking: Self.marking)) as? [String: Any]
        let devices = object?["devices"] as? [[String: Any]] ?? []
        #expect(devices.count == 4)
        let hub = devices.first { $0["location"] as? String == "1-1" }
        let hubFacts = hub?["hub"] as? [String: Any]
        #expect(hubFacts?["switching"] as? String == "per-port")
        #expect(hubFacts?["hubDescriptor"] as? String == "0a 29 08 09 00 01 00 00 00 ff")
        let ports = hubFacts?["ports"] as? [[String: Any]]
        #expect(ports?.first?["powered"] as? Bool == true)
        #expect(ports?.last?["powered"] as? Bool == false)
        let dongle = devices.first { $0["location"] as? String == "1-1.1" }
        #expect(dongle?["bluetoothAdapter"] as? String == "class e0/01/01")
        #expect(dongle?["parent"] as? String == "1-1")
    }

    @Test func withoutAMarkingNothingIsMarked() throws {
        let tree = Self.topology.renderTree()
        #expect(tree.contains("│  ├─ port 1 [0x0103 power enable connect]: 1-1.1  0a12:0001  serial XYZ  class e0/01/01  12 Mb/s\n"))
        #expect(!tree.contains("◆") && !tree.contains("Bluetooth"))
        let object = try JSONSerialization.jsonObject(with: Self.topology.jsonData()) as? [String: Any]
        let devices = object?["devices"] as? [[String: Any]] ?? []
        #expect(devices.allSatisfy { $0["bluetoothAdapter"] == nil })
    }

    @Test func lookups() {
        let topology = Self.topology
        #expect(topology.devices(behind: USBLocation("1-1")!, port: 1).map(\.id) == [USBID("0a12:0001")!])
        #expect(topology.devices(behind: USBLocation("1-1")!, port: 2).isEmpty)
        #expect(topology.hubs.count == 3)
        #expect(topology.buses.map(\.location) == [USBLocation("1")!])
        #expect(topology.devices(markedBy: Self.marking).map { "\($0.device.location) \($0.reason)" } == ["1-1.1 class e0/01/01"])
    }
}
