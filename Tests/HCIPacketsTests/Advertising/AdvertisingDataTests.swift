import Foundation
import Testing
@testable import HCIPackets

@Suite("AdvertisingData")
struct AdvertisingDataTests {
    @Test("a thermometer's advertising data")
    func thermometer() throws {
        let ad = try AdvertisingData(parsing: AdvertisingPayloads.thermometer)
        #expect(ad.structures.map(\.type) == [.flags, .completeLocalName, .completeList16, .manufacturerSpecificData])
        #expect(ad.flags == [.leGeneralDiscoverable, .brEdrNotSupported])
        #expect(ad.localName == "Thermo")
        #expect(ad.isCompleteName == true)
        #expect(ad.serviceUUIDs == [BluetoothUUID(0x180F), BluetoothUUID(0x1809)])
        #expect(ad.manufacturerData.count == 1)
        #expect(ad.manufacturerData.first?.company == .nordicSemiconductor)
        #expect(ad.manufacturerData.first?.data == [0x01, 0x02, 0x03, 0x04])
        #expect(ad.txPowerLevel == nil)
        #expect(ad.appearance == nil)
        #expect(ad.serviceData.isEmpty)
        #expect(ad.summary
                == #"name "Thermo", services [180F, 1809], manufacturer 0x0059 Nordic Semiconductor ASA 4 bytes, flags 0x06"#)
        #expect(ad.encoded() == AdvertisingPayloads.thermometer)
    }

    @Test("an iBeacon")
    func iBeacon() throws {
        let ad = try AdvertisingData(parsing: AdvertisingPayloads.iBeacon)
        #expect(AdvertisingPayloads.iBeacon.count == 30)
        let manufacturer = try #require(ad.manufacturerData.first)
        #expect(manufacturer.company == .apple)
        #expect(manufacturer.data.prefix(2) == [0x02, 0x15])
        #expect(manufacturer.data.count == 23)
        #expect(Int8(bitPattern: try #require(manufacturer.data.last)) == -59)
        #expect(ad.localName == nil)
        #expect(ad.isCompleteName == nil)
        #expect(ad.summary == "manufacturer 0x004C Apple, Inc. 23 bytes, flags 0x06")
    }

    @Test("an Eddystone-URL beacon's service data")
    func eddystone() throws {
        let ad = try AdvertisingData(parsing: AdvertisingPayloads.eddystoneURL)
        #expect(ad.serviceUUIDs == [BluetoothUUID(0xFEAA)])
        let frame = try #require(ad.serviceData[BluetoothUUID(0xFEAA)])
        #expect(frame.first == 0x10)
        #expect(Int8(bitPattern: frame[1]) == -8)
        #expect(String(decoding: frame[3..<9], as: UTF8.self) == "google")
        #expect(ad.summary == "services [FEAA], service data FEAA 10 bytes, flags 0x06")
    }

    @Test("a scan response with a 128-bit UUID, shortened name, tx power and appearance")
    func scanResponse() throws {
        let ad = try AdvertisingData(parsing: AdvertisingPayloads.scanResponse)
        let nus = try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(ad.serviceUUIDs == [nus])
        #expect(ad.localName == "NUS")
        #expect(ad.isCompleteName == false)
        #expect(ad.txPowerLevel == 0)
        #expect(ad.appearance == 0x0340)
        #expect(ad.flags == nil)
        #expect(ad.summary
                == #"short name "NUS", services [6E400001-B5A3-F393-E0A9-E50E24DCCA9E], tx power 0 dBm, appearance 0x0340"#)
    }

    @Test("a zero length ends the significant part")
    func zeroPadding() throws {
        let ad = try AdvertisingData(parsing: AdvertisingPayloads.zeroPadded)
        #expect(ad.structures == [ADStructure(type: .flags, data: [0x06])])
        #expect(ad.encoded() == [0x02, 0x01, 0x06])
        let early = try AdvertisingData(parsing: [0x02, 0x01, 0x06, 0x00, 0x05, 0x09, 0x41])
        #expect(early.structures.count == 1)
        #expect(try AdvertisingData(parsing: []).structures.isEmpty)
        #expect(try AdvertisingData(parsing: [0x00]).summary == "empty")
    }

    @Test("a length running past the end names the offset and the length")
    func overrun() {
        let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09, 0x41, 0x42]
        #expect(throws: AdvertisingDataError(offset: 3, message: "length 5 runs past the end (3 octets remain)")) {
            try AdvertisingData(parsing: bytes)
        }
        do {
            _ = try AdvertisingData(parsing: bytes)
            Issue.record("parsed overrunning data")
        } catch {
            #expect(error.offset == 3)
            #expect(error.description.contains("offset 3"))
            #expect(error.description.contains("length 5"))
        }
        let lenient = AdvertisingData.lenientlyParsed(bytes)
        #expect(lenient.structures == [ADStructure(type: .flags, data: [0x06])])
        #expect(lenient.localName == nil)
    }

    @Test("a lone length octet at the end is an error")
    func loneLength() {
        #expect(throws: AdvertisingDataError.self) { try AdvertisingData(parsing: [0x02, 0x01, 0x06, 0x01]) }
        #expect(AdvertisingData.lenientlyParsed([0x02, 0x01, 0x06, 0x01]).structures.count == 1)
        let typeOnly = AdvertisingData.lenientlyParsed([0x01, 0x09])
        #expect(typeOnly.localName == "")
    }

    @Test("the complete name wins over the shortened one, whatever the order")
    func namePreference() throws {
        let ad = try AdvertisingData(parsing: [0x03, 0x08, 0x41, 0x42, 0x05, 0x09, 0x41, 0x42, 0x43, 0x44])
        #expect(ad.localName == "ABCD")
        #expect(ad.isCompleteName == true)
    }

    @Test("invalid UTF-8 in a name is replaced, not trapped on")
    func badUTF8() throws {
        let ad = try AdvertisingData(parsing: [0x05, 0x09, 0x41, 0xFF, 0xC3, 0x42])
        #expect(ad.localName == "A\u{FFFD}\u{FFFD}B")
        #expect(ad.summary.hasPrefix("name "))
    }

    @Test("UUID lists of all widths, complete and incomplete, with a trailing partial UUID ignored")
    func uuidLists() throws {
        let ad = try AdvertisingData(parsing: [
            0x04, 0x02, 0x0D, 0x18, 0xAA,              // incomplete 16-bit: 180D + one stray octet
            0x05, 0x05, 0x78, 0x56, 0x34, 0x12,        // complete 32-bit: 12345678
            0x03, 0x03, 0x0D, 0x18,                    // 180D again: not repeated
        ])
        #expect(ad.serviceUUIDs == [BluetoothUUID(0x180D), BluetoothUUID(UInt32(0x1234_5678))])
    }

    @Test("manufacturer data shorter than a company identifier is ignored")
    func shortManufacturer() throws {
        let ad = try AdvertisingData(parsing: [0x02, 0xFF, 0x59, 0x04, 0xFF, 0x4C, 0x00, 0x01])
        #expect(ad.manufacturerData.map(\.company) == [.apple])
        #expect(ad.manufacturerData.first?.data == [0x01])
    }

    @Test("make builds the expected bytes")
    func make() throws {
        let ad = AdvertisingData.make(
            flags: .leGeneralDiscoverableOnly,
            name: "Thermo",
            serviceUUIDs: [BluetoothUUID(0x180F), BluetoothUUID(0x1809)],
            manufacturerData: (.nordicSemiconductor, [0x01, 0x02, 0x03, 0x04]))
        #expect(ad.encoded() == AdvertisingPayloads.thermometer)
        #expect(ad.encodedCount == AdvertisingPayloads.thermometer.count)
    }

    @Test("make groups UUIDs into complete lists by their shortest form")
    func makeGrouping() throws {
        let nus = try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        let battery128 = try #require(BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB"))
        let ad = AdvertisingData.make(
            serviceUUIDs: [nus, battery128, BluetoothUUID(UInt32(0x1234_5678)), BluetoothUUID(0x1809), BluetoothUUID(0x180F)],
            serviceData: [(BluetoothUUID(0x180F), [0x64])],
            txPower: -4,
            appearance: 0x0341)
        #expect(ad.structures.map(\.type) == [.completeList16, .complete32, .complete128, .serviceData16, .txPowerLevel, .appearance])
        #expect(ad.first(.completeList16) == [0x0F, 0x18, 0x09, 0x18])
        #expect(ad.first(.complete32) == [0x78, 0x56, 0x34, 0x12])
        #expect(ad.first(.complete128) == nus.littleEndianBytes)
        #expect(ad.serviceData[BluetoothUUID(0x180F)] == [0x64])
        #expect(ad.txPowerLevel == -4)
        #expect(ad.first(.txPowerLevel) == [0xFC])
        #expect(ad.appearance == 0x0341)
        #expect(Set(ad.serviceUUIDs) == Set([nus, BluetoothUUID(0x180F), BluetoothUUID(UInt32(0x1234_5678)), BluetoothUUID(0x1809)]))
    }

    @Test("make sends a shortened name when asked or when the name is too long")
    func makeNames() throws {
        let short = AdvertisingData.make(name: "Sensor", completeName: false)
        #expect(short.structures == [ADStructure(type: .shortenedLocalName, data: Array("Sensor".utf8))])
        let long = AdvertisingData.make(name: String(repeating: "é", count: 200))  // 400 UTF-8 octets
        let structure = try #require(long.structures.first)
        #expect(structure.type == .shortenedLocalName)
        #expect(structure.data.count == 248)
        #expect(long.localName == String(repeating: "é", count: 124))
        #expect(long.structures.allSatisfy { $0.isEncodable })
    }

    @Test("round trip: parse(encode(x)) == x", arguments: 0..<6)
    func roundTrip(index: Int) throws {
        let samples: [AdvertisingData] = try AdvertisingPayloads.all.map { try AdvertisingData(parsing: $0) } + [
            AdvertisingData.make(flags: [.leLimitedDiscoverable], name: "ü-name", serviceUUIDs: [BluetoothUUID(0xFFF0)],
                                 serviceData: [(BluetoothUUID(UInt32(0xCAFE_F00D)), [1, 2, 3])],
                                 manufacturerData: (CompanyIdentifier(0x1234), []), txPower: -127, appearance: 0xFFFF),
            AdvertisingData(structures: [ADStructure(type: ADType(0xE0), data: [9, 9]), ADStructure(type: .uri, data: [])]),
        ]
        let original = samples[index]
        let parsed = try AdvertisingData(parsing: original.encoded())
        #expect(parsed == original)
        #expect(parsed.encoded() == original.encoded())
    }

    @Test("Codable as hex of the encoded bytes")
    func codable() throws {
        let ad = try AdvertisingData(parsing: AdvertisingPayloads.thermometer)
        let json = try JSONEncoder().encode(ad)
        #expect(String(decoding: json, as: UTF8.self) == #""0201060709546865726D6F05030F18091807FF590001020304""#)
        #expect(try JSONDecoder().decode(AdvertisingData.self, from: json) == ad)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AdvertisingData.self, from: Data(#""0205""#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AdvertisingData.self, from: Data(#""02x106""#.utf8))
        }
    }
}
