@testable import HCIUSB
import LibUSB
import Testing

/// The one place that decides which USB devices are Bluetooth controllers.
@Suite struct USBBluetoothClassifierTests {
    static func interface(_ number: UInt8, _ classCode: UInt8, _ subclass: UInt8, _ protocolCode: UInt8) -> USBInterfaceDescriptor {
        USBInterfaceDescriptor(number: number, interfaceClass: classCode, subclass: subclass, protocolCode: protocolCode, endpoints: [])
    }

    @Test func bluetoothAdaptersByClassInterfaceOrTable() {
        let byDevice = USBBluetoothClassifier.classify(vendor: 0x0A12, product: 0x0001, deviceClass: 0xE0, deviceSubclass: 1, deviceProtocol: 1,
                                                       interfaces: [])
        #expect(byDevice == .deviceClass && byDevice?.description == "class e0/01/01")
        let byInterface = USBBluetoothClassifier.classify(vendor: 0x1234, product: 0x5678, deviceClass: 0, deviceSubclass: 0, deviceProtocol: 0,
                                                          interfaces: [Self.interface(0, 0xFF, 0, 0), Self.interface(1, 0xE0, 1, 1)])
        #expect(byInterface?.description == "interface 1 class e0/01/01")
        let byTable = USBBluetoothClassifier.classify(vendor: 0x0BDA, product: 0x8771, deviceClass: 0xFF, deviceSubclass: 0, deviceProtocol: 0,
                                                      interfaces: [])
        #expect(byTable?.description == "Realtek RTL8761B")
        let keyboard = USBBluetoothClassifier.classify(vendor: 0x0627, product: 0x0001, deviceClass: 0, deviceSubclass: 0, deviceProtocol: 0,
                                                       interfaces: [Self.interface(0, 3, 1, 1)])
        #expect(keyboard == nil)
    }

    /// `usb:N` counts the devices that declare the class; a known dongle with a vendor class is listed
    /// but must be opened with `!`.
    @Test func onlyTheClassCountsAsDeclared() {
        #expect(USBBluetoothClassifier.Evidence.deviceClass.declaresClass)
        #expect(USBBluetoothClassifier.Evidence.interfaceClass(number: 0).declaresClass)
        #expect(!USBBluetoothClassifier.Evidence.knownDongle("CSR8510 A10 (Cambridge Silicon Radio)").declaresClass)
        #expect(USBBluetoothClassifier.knownDongle(vendor: 0x2FE3, product: 0x000B) == "Zephyr hci_usb (e.g. nRF52840 Dongle)")
        #expect(USBBluetoothClassifier.knownDongle(vendor: 0x2FE3, product: 0x000C) == nil)
        #expect(Self.interface(0, 0xE0, 1, 1).isBluetooth && !Self.interface(0, 0xE0, 1, 0).isBluetooth)
    }

    /// Every key of the table is an ID as `USBHex.id` writes it, or the lookup could never find it.
    @Test func tableKeysAreLowercaseIDs() {
        for key in USBBluetoothClassifier.knownDongles.keys {
            let parts = key.split(separator: ":")
            let vendor = parts.first.flatMap { UInt16($0, radix: 16) }, product = parts.last.flatMap { UInt16($0, radix: 16) }
            #expect(parts.count == 2 && vendor.flatMap { v in product.map { USBHex.id(v, $0) } } == key, "\(key)")
        }
    }
}
