import Foundation
import HostCore
import Testing
@testable import HCIUSB

/// Against a real USB dongle, named by HIL_TEST_USB_ADAPTER=SELECTOR (e.g. 2fe3:000b). Skipped, with
/// the reason, where there is none; the kernel tier (scripts/kernel/test-bluetooth) covers the same
/// paths against an emulated dongle on dummy_hcd.
@Suite struct HardwareAdapterTests {
    static let selector = ProcessInfo.processInfo.environment["HIL_TEST_USB_ADAPTER"]

    @Test(.enabled(if: selector != nil, "no real USB adapter: set HIL_TEST_USB_ADAPTER=SELECTOR (e.g. 0, 2fe3:000b or 1-1.4) to reset a dongle through libusb"))
    func initializeARealDongle() async throws {
        let selector = try #require(Self.selector)
        let transport = try USBTransport.open(selector: selector, moniker: "usb:\(selector)")
        let host = try HCIHost(transport: transport)
        let info = try await host.initialize()
        #expect(info.hciVersion.rawValue >= 6, "an LE controller reports HCI 4.0 or later")
        await host.close()
    }

    /// On a machine without any Bluetooth USB device, `usb:0` says so and lists what it looked for.
    @Test(.enabled(if: selector == nil && !FileManager.default.fileExists(atPath: "/sys/class/bluetooth"), "this machine has Bluetooth devices"))
    func noDongleIsNotFound() {
        do {
            _ = try USBTransport.open(selector: "0", moniker: "usb:0")
            Issue.record("usb:0 opened on a machine without a dongle")
        } catch {
            #expect(error.kind == .notFound || error.kind == .unsupported, "\(error)")
            #expect(error.message.contains("usb:0"))
        }
    }
}
