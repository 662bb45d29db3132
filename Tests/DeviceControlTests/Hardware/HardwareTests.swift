import Foundation
import Testing
import TestSupport
@testable import DeviceControl

/// Against a real per-port-switching hub, named by HIL_TEST_HUB=LOCATION:PORT (a port with a device
/// behind it that may be power-cycled). Skipped, with the reason, where there is none; the kernel tier
/// (scripts/kernel/test-usb-power) covers the same paths against QEMU's hub in CI. A real device, on real time:
/// a peer.
@Suite(.tags(.peer)) struct HardwareTests {
    static let target: (hub: USBLocation, port: Int)? = {
        guard let text = ProcessInfo.processInfo.environment["HIL_TEST_HUB"],
              let colon = text.lastIndex(of: ":"), let hub = USBLocation(String(text[..<colon])),
              let port = Int(text[text.index(after: colon)...]) else { return nil }
        return (hub, port)
    }()

    @Test(.enabled(if: target != nil, "no real hub: set HIL_TEST_HUB=LOCATION:PORT (e.g. 1-1.4:2) to power-cycle a device behind a per-port hub"))
    func cycleARealPort() async throws {
        let target = try #require(Self.target)
        let powerSwitch = try PowerSwitchFactory.makeSwitch(PowerSwitchMoniker.usbHub(target.hub).description(ports: [target.port]))
        let transition = try await powerSwitch.cycle(offTime: .seconds(2))
        #expect(transition.verification.isVerified, "\(transition.verification)")
    }
}
