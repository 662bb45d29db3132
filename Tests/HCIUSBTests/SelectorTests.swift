import Testing
@testable import HCIUSB

@Suite struct SelectorTests {
    @Test func parsesEveryForm() throws {
        #expect(try USBSelector(parsing: "0").match == .index(0))
        #expect(try USBSelector(parsing: "2fe3:000b").match == .id(vendor: 0x2FE3, product: 0x000B, serial: nil, occurrence: 0))
        #expect(try USBSelector(parsing: "2FE3:000B/8A1F44C2").match == .id(vendor: 0x2FE3, product: 0x000B, serial: "8A1F44C2", occurrence: 0))
        #expect(try USBSelector(parsing: "0a12:0001#1").match == .id(vendor: 0x0A12, product: 0x0001, serial: nil, occurrence: 1))
        #expect(try USBSelector(parsing: "0a12:0001/#1").match == .id(vendor: 0x0A12, product: 0x0001, serial: nil, occurrence: 1))
        #expect(try USBSelector(parsing: "1-1.4").match == .location(bus: 1, ports: [1, 4]))
        let forced = try USBSelector(parsing: "0b05:17cb!")
        #expect(forced.forced && forced.match == .id(vendor: 0x0B05, product: 0x17CB, serial: nil, occurrence: 0))
        #expect(try USBSelector(parsing: "1-1.4").description == "1-1.4")
        #expect(try USBSelector(parsing: "2fe3:000b/SER!").description == "2fe3:000b/SER!")
    }

    @Test(arguments: ["", "!", "x", "2fe3", "2fe3:", "12345:0001", "zz:0001", "2fe3:000b/", "1-", "1-0", "0-1", "1-1..2", "1-1.2.3.4.5.6.7.8", "9999", "2fe3:000b#x"])
    func rejectsBadSelectors(_ text: String) {
        #expect(throws: USBSelectorError.self) { try USBSelector(parsing: text) }
    }

    static let devices = [
        USBCandidate(bus: 1, ports: [2], vendor: 0x0A12, product: 0x0001, serial: nil, isBluetooth: true),
        USBCandidate(bus: 1, ports: [1, 4], vendor: 0x2FE3, product: 0x000B, serial: "B", isBluetooth: true),
        USBCandidate(bus: 1, ports: [1, 3], vendor: 0x2FE3, product: 0x000B, serial: "A", isBluetooth: true),
        USBCandidate(bus: 1, ports: [1], vendor: 0x05E3, product: 0x0610, isBluetooth: false),
    ]

    @Test func indexCountsBluetoothDevicesInLocationOrder() throws {
        #expect(try USBSelector(parsing: "0").select(from: Self.devices).location == "1-1.3")
        #expect(try USBSelector(parsing: "2").select(from: Self.devices).location == "1-2")
        do {
            _ = try USBSelector(parsing: "3").select(from: Self.devices)
            Issue.record("index 3 selected something")
        } catch {
            #expect(error.description.contains("no Bluetooth USB device number 3"))
            #expect(error.description.contains("0: 1-1.3 2fe3:000b/A"))
        }
    }

    @Test func idSerialOccurrenceAndLocation() throws {
        #expect(try USBSelector(parsing: "2fe3:000b/B").select(from: Self.devices).location == "1-1.4")
        #expect(try USBSelector(parsing: "2fe3:000b#1").select(from: Self.devices).serial == "B")
        #expect(try USBSelector(parsing: "1-1").select(from: Self.devices).vendor == 0x05E3)
        do {
            _ = try USBSelector(parsing: "2fe3:000b/C").select(from: Self.devices)
            Issue.record("a missing serial selected something")
        } catch {
            #expect(error.description.contains("no 2fe3:000b has serial C (serials present: B, A)") || error.description.contains("serials present: A, B"))
        }
        #expect(throws: USBSelectorError.self) { try USBSelector(parsing: "1-9").select(from: Self.devices) }
    }
}
