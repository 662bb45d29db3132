@testable import BenchOperations
import Testing

/// btusb's quirks by USB ID and its fake-CSR rules (drivers/bluetooth/btusb.c `quirks_table`, `btusb_setup_csr`).
@Suite struct BTUSBQuirkTableTests {
    @Test("The table finds btusb's flags by USB ID, and says which hil applies")
    func lookup() {
        #expect(BTUSBQuirkTable.entry(vendor: 0x0A12, product: 0x0001)?.quirks == [.csr])
        #expect(BTUSBQuirkTable.entry(vendor: 0x0A5C, product: 0x2033)?.quirks == [.ignore])
        #expect(BTUSBQuirkTable.entry(vendor: 0x0A5C, product: 0x2035)?.quirks == [.wrongSCOMTU])
        #expect(BTUSBQuirkTable.entry(vendor: 0x8087, product: 0x0A5A)?.quirks == [.brokenIsochronous])
        #expect(BTUSBQuirkTable.entry(vendor: 0x2357, product: 0x0604) == nil)
        #expect(BTUSBQuirk.csr.applied && BTUSBQuirk.ignore.applied)
        #expect(!BTUSBQuirk.brokenIsochronous.applied && !BTUSBQuirk.wrongSCOMTU.applied)
        #expect(BTUSBQuirk.allCases.allSatisfy { $0.effect.hasPrefix($0.applied ? "applied:" : "known, irrelevant to LE:") })
    }

    @Test("Every USB ID is in the table once")
    func uniqueIDs() {
        let ids = BTUSBQuirkTable.entries.map { UInt32($0.vendor) << 16 | UInt32($0.product) }
        #expect(Set(ids).count == ids.count)
    }

    @Test("A device btusb ignores is refused by name; others are not")
    func refusal() {
        let ignored = ControllerQuirkStage(vendor: 0x0CF3, product: 0x3002, serial: nil, location: "1-1")
        #expect(ignored.refusal?.contains("BTUSB_IGNORE") == true)
        #expect(ignored.refusal?.contains("0cf3:3002") == true)
        #expect(ControllerQuirkStage(vendor: 0x0A12, product: 0x0001, serial: nil, location: "1-1").refusal == nil)
    }

    @Test("btusb_setup_csr's rules tell a CSR from its clones")
    func fakeCSR() {
        // A real CSR8510 A10: manufacturer 10, HCI 4.0, build 0x22bb in both fields.
        #expect(FakeCSRCheck.cloneReason(manufacturer: 10, hciVersion: 6, hciRevision: 0x22BB, lmpSubversion: 0x22BB) == nil)
        // Another manufacturer behind CSR's ID.
        #expect(FakeCSRCheck.cloneReason(manufacturer: 0x5D, hciVersion: 6, hciRevision: 0x22BB, lmpSubversion: 0x22BB) != nil)
        // A Barrot 8041a02 (btusb's comment: HCI revision 0x0810, subversion 0x1012).
        #expect(FakeCSRCheck.cloneReason(manufacturer: 10, hciVersion: 6, hciRevision: 0x0810, lmpSubversion: 0x1012) != nil)
        // A Bluetooth 1.1 build claiming 4.0; a 2.0 build claiming 2.1; a 4.0 build claiming 5.0.
        #expect(FakeCSRCheck.cloneReason(manufacturer: 10, hciVersion: 6, hciRevision: 0x0073, lmpSubversion: 0x0073) != nil)
        #expect(FakeCSRCheck.cloneReason(manufacturer: 10, hciVersion: 4, hciRevision: 0x0C5C, lmpSubversion: 0x0C5C) != nil)
        #expect(FakeCSRCheck.cloneReason(manufacturer: 10, hciVersion: 9, hciRevision: 0x22BB, lmpSubversion: 0x22BB) != nil)
        // A real 2.0 build, unless bcdDevice is 0x0134.
        #expect(FakeCSRCheck.cloneReason(manufacturer: 10, hciVersion: 3, hciRevision: 0x0C5C, lmpSubversion: 0x0C5C) == nil)
        #expect(FakeCSRCheck.cloneReason(manufacturer: 10, hciVersion: 3, hciRevision: 0x0C5C, lmpSubversion: 0x0C5C, bcdDevice: 0x0134) != nil)
    }
}
