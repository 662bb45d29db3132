import Foundation
import Testing
@testable import HCIPackets

@Suite("ADType, ADStructure, AdvertisingFlags")
struct ADTypeTests {
    @Test("Assigned Numbers values of the AD types", arguments: [
        (ADType.flags, UInt8(0x01)), (.incompleteList16BitServiceUUIDs, 0x02), (.completeList16, 0x03),
        (.incomplete32, 0x04), (.complete32, 0x05), (.incomplete128, 0x06), (.complete128, 0x07),
        (.shortenedLocalName, 0x08), (.completeLocalName, 0x09), (.txPowerLevel, 0x0A),
        (.classOfDevice, 0x0D), (.slaveConnectionIntervalRange, 0x12), (.peripheralConnectionIntervalRange, 0x12),
        (.serviceSolicitation16, 0x14), (.serviceSolicitation128, 0x15), (.serviceData16, 0x16),
        (.publicTargetAddress, 0x17), (.randomTargetAddress, 0x18), (.appearance, 0x19),
        (.advertisingInterval, 0x1A), (.leBluetoothDeviceAddress, 0x1B), (.leRole, 0x1C),
        (.serviceSolicitation32, 0x1F), (.serviceData32, 0x20), (.serviceData128, 0x21), (.uri, 0x24),
        (.manufacturerSpecificData, 0xFF),
    ])
    func values(type: ADType, value: UInt8) {
        #expect(type.rawValue == value)
        #expect(type.name != nil)
    }

    @Test("names and descriptions")
    func names() {
        #expect(ADType.completeLocalName.description == "0x09 Complete Local Name")
        #expect(ADType.flags.name == "Flags")
        #expect(ADType.manufacturerSpecificData.name == "Manufacturer Specific Data")
        #expect(ADType.serviceData16.name == "Service Data - 16-bit UUID")
        #expect(ADType(rawValue: 0xE0).name == nil)
        #expect(ADType(rawValue: 0xE0).description == "0xE0 (unknown AD type)")
        #expect(ADType.complete128.uuidWidth == .bits128)
        #expect(ADType.serviceData32.uuidWidth == .bits32)
        #expect(ADType.flags.uuidWidth == nil)
        #expect(ADType.incomplete16.isServiceUUIDList && !ADType.serviceData16.isServiceUUIDList)
    }

    @Test("a structure encodes length, type, data")
    func structureEncoding() {
        let structure = ADStructure(type: .completeLocalName, data: Array("Hi".utf8))
        #expect(structure.encoded() == [0x03, 0x09, 0x48, 0x69])
        #expect(ADStructure(.flags, [0x06]).encoded() == [0x02, 0x01, 0x06])
        #expect(ADStructure(type: .flags, data: []).encoded() == [0x01, 0x01])
        let big = ADStructure(type: .manufacturerSpecificData, data: [UInt8](repeating: 0xAB, count: 300))
        #expect(!big.isEncodable)
        #expect(big.encoded().count == 256)
        #expect(big.encoded().first == 0xFF)
    }

    @Test("flags bits and names")
    func flags() {
        let flags: AdvertisingFlags = [.leGeneralDiscoverable, .brEdrNotSupported]
        #expect(flags.rawValue == 0x06)
        #expect(flags == .leGeneralDiscoverableOnly)
        #expect(flags.names == ["LE General Discoverable Mode", "BR/EDR Not Supported"])
        #expect(AdvertisingFlags.leLimitedDiscoverable.rawValue == 0x01)
        #expect(AdvertisingFlags.simultaneousLEAndBREDRController.rawValue == 0x08)
        #expect(AdvertisingFlags(rawValue: 0x80).names == ["bit 7"])
    }
}
