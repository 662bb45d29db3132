import Testing
@testable import DeviceControl

@Suite struct HubPairingTests {
    static func hub(_ location: String, _ id: String, superSpeed: Bool, container: UInt8? = nil) -> HubIdentity {
        HubIdentity(location: USBLocation(location)!, id: USBID(id)!, superSpeed: superSpeed,
                    containerID: container.flatMap { ContainerID(bytes: [UInt8](repeating: $0, count: 16)) })
    }

    @Test func containerIDWinsOverPortPath() {
        let usb2 = Self.hub("1-1.4", "2109:2817", superSpeed: false, container: 7)
        let decoy = Self.hub("2-1.4", "2109:0817", superSpeed: true, container: 9)
        let real = Self.hub("2-3", "2109:0817", superSpeed: true, container: 7)
        let match = HubPairing.partner(of: usb2, among: [usb2, decoy, real])
        #expect(match?.hub.location == USBLocation("2-3"))
        #expect(match?.evidence == .containerID)
    }

    @Test func samePortPathAndVendorWithoutContainerIDs() {
        let usb3 = Self.hub("2-1", "05e3:0620", superSpeed: true)
        let usb2 = Self.hub("1-1", "05e3:0610", superSpeed: false)
        let other = Self.hub("1-2", "05e3:0610", superSpeed: false)
        let match = HubPairing.partner(of: usb3, among: [usb3, usb2, other])
        #expect(match?.hub.location == USBLocation("1-1"))
        #expect(match?.evidence == .portPath)
    }

    @Test func noPartnerForAUSB2OnlyHubOrAnotherVendor() {
        let usb2 = Self.hub("1-1", "0409:55aa", superSpeed: false)
        let stranger = Self.hub("2-1", "2109:0817", superSpeed: true)
        #expect(HubPairing.partner(of: usb2, among: [usb2]) == nil)
        #expect(HubPairing.partner(of: usb2, among: [usb2, stranger]) == nil)
    }

    @Test func ambiguousPortPathIsNotGuessed() {
        let usb3 = Self.hub("3-1", "05e3:0620", superSpeed: true)
        let a = Self.hub("1-1", "05e3:0610", superSpeed: false)
        let b = Self.hub("2-1", "05e3:0610", superSpeed: false)
        #expect(HubPairing.partner(of: usb3, among: [usb3, a, b]) == nil)
    }
}
