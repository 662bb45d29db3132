import BenchOperations
import DeviceControl
import Foundation
import Testing

/// `hil usb` marks Bluetooth adapters through HCIUSB's classifier: by class, by interface, by the table.
@Suite struct BluetoothAdapterMarkingTests {
    static var topology: USBTopology {
        let root = USBDeviceInfo(location: USBLocation("1")!, id: USBID("1d6b:0002")!, deviceClass: 9)
        let dongle = USBDeviceInfo(location: USBLocation("1-1")!, id: USBID("0a12:0001")!, speed: .full,
                                   deviceClass: 0xE0, deviceSubclass: 1, deviceProtocol: 1, serial: "XYZ")
        let byInterface = USBDeviceInfo(location: USBLocation("1-2")!, id: USBID("1234:5678")!,
                                        interfaces: [USBInterfaceClass(number: 0, classCode: 0xFF, subclass: 0, protocolCode: 0),
                                                     USBInterfaceClass(number: 1, classCode: 0xE0, subclass: 1, protocolCode: 1)])
        let realtek = USBDeviceInfo(location: USBLocation("1-3")!, id: USBID("0bda:8771")!, deviceClass: 0xFF)
        let keyboard = USBDeviceInfo(location: USBLocation("1-4")!, id: USBID("0627:0001")!,
                                     interfaces: [USBInterfaceClass(number: 0, classCode: 3, subclass: 1, protocolCode: 1)])
        return USBTopology(devices: [root, dongle, byInterface, realtek, keyboard])
    }

    @Test func treeMarksAndListsTheAdapters() {
        let tree = Self.topology.renderTree(marking: .bluetoothAdapters)
        #expect(tree.contains("├─ port 1: 1-1  0a12:0001  serial XYZ  class e0/01/01  12 Mb/s  ◆ Bluetooth adapter (class e0/01/01)"))
        #expect(tree.contains("1-2  1234:5678  class ff/00/00  ? Mb/s  ◆ Bluetooth adapter (interface 1 class e0/01/01)"))
        #expect(tree.contains("1-3  0bda:8771  class ff/00/00  ? Mb/s  ◆ Bluetooth adapter (Realtek RTL8761B)"))
        #expect(tree.contains("└─ port 4: 1-4  0627:0001  class 03/01/01  ? Mb/s\n"))
        #expect(tree.hasSuffix("\n\nBluetooth adapters: 1-1 (0a12:0001, class e0/01/01), 1-2 (1234:5678, interface 1 class e0/01/01), "
                               + "1-3 (0bda:8771, Realtek RTL8761B)"))
    }

    @Test func jsonCarriesTheReason() throws {
        let object = try JSONSerialization.jsonObject(with: Self.topology.jsonData(marking: .bluetoothAdapters)) as? [String: Any]
        let devices = object?["devices"] as? [[String: Any]] ?? []
        let reasons = Dictionary(uniqueKeysWithValues: devices.compactMap { device in
            (device["location"] as? String).map { ($0, device["bluetoothAdapter"] as? String ?? "-") }
        })
        #expect(reasons == ["1": "-", "1-1": "class e0/01/01", "1-2": "interface 1 class e0/01/01", "1-3": "Realtek RTL8761B", "1-4": "-"])
    }
}
