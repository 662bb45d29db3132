@testable import BenchOperations
import DeviceControl
import HCIPackets
import EventLoops
import HCITransports
import HostCore
import Synchronization
import Testing
import TestSupport

/// The standard ladder over hosts on a fake dongle: a controller in memory that answers the
/// initialization, or stays silent while wedged, the way the emulated dongle of the kernel tier does. The
/// hosts, their command deadlines and the ladder's settle times are on virtual time: a wedged dongle costs
/// exactly the 150 ms Reset deadline of the test's clock.
@Suite struct StandardLadderTests {
    final class FakeDongle: Sendable {
        struct State { var wedged = false; var recoversOn: String? = "usb-reset"; var resets = 0; var cycles = 0; var usbResets = 0 }
        let state = Mutex(State())

        func event(_ what: String) {
            state.withLock { state in
                if what == "usb-reset" { state.usbResets += 1 }
                if what == "power" { state.cycles += 1 }
                if state.recoversOn == what { state.wedged = false }
            }
        }

        /// The reply to a command, nil while wedged.
        func reply(_ command: HCICommandPacket) -> HCIEventPacket? {
            let wedged = state.withLock { state -> Bool in
                if command.opcode == .reset { state.resets += 1 }
                return state.wedged
            }
            if wedged { return nil }
            let opcode = command.opcode.rawValue
            var returned: [UInt8] = []
            switch command.opcode {
            case .readLocalVersionInformation: returned = [0x09, 0x00, 0x00, 0x09, 0xF1, 0x05, 0x00, 0x00]
            case .readBDADDR: returned = [0x42, 0x00, 0x01, 0x01, 0xAA, 0x00]
            case .readLocalSupportedCommands: returned = [UInt8](repeating: 0, count: 64)
            case .readLocalSupportedFeatures: returned = [0, 0, 0, 0, 0x60, 0, 0, 0]
            case .readBufferSize: returned = [0, 0, 0, 0, 0, 0, 0]
            case .leReadLocalSupportedFeatures: returned = [0x01, 0, 0, 0, 0, 0, 0, 0]
            case .leReadBufferSize: returned = [27, 0, 2]
            default: break
            }
            return HCIEventPacket(code: 0x0E, parameters: [1, UInt8(opcode & 0xFF), UInt8(opcode >> 8), 0] + returned)
        }
    }

    /// A transport in memory, answered by the dongle on the host's loop; the host keeps its deadlines on `clock`.
    final class FakeTransport: HCITransport {
        let moniker = "usb:fake"
        let dongle: FakeDongle
        let clock: LoopClock
        let target = Mutex<(EventLoop, @Sendable (HCITransportEvent) -> Void)?>(nil)

        init(_ dongle: FakeDongle, clock: LoopClock) {
            self.dongle = dongle
            self.clock = clock
        }

        func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
            target.withLock { $0 = (loop, receive) }
        }

        func send(_ packet: HCIPacket) throws(HCITransportError) {
            guard case .command(let command) = packet, let reply = dongle.reply(command),
                  let (loop, receive) = target.withLock({ $0 }) else { return }
            loop.execute { receive(.packet(.event(reply))) }
        }

        func close() {
            guard let (loop, receive) = target.withLock({ state in defer { state = nil }; return state }) else { return }
            loop.execute { receive(.closed(HCITransportError(.closedByHost, "usb:fake: closed by the host"))) }
        }
    }

    /// Records cycles; the dongle sees them as power cycles.
    struct FakeSwitch: PowerSwitch {
        let dongle: FakeDongle
        var name: String { "usb-hub:1-1 port 2" }
        func on() async throws -> PowerTransition { transition(.on) }
        func off() async throws -> PowerTransition { transition(.off) }
        func cycle(offTime: Duration) async throws -> PowerTransition {
            dongle.event("power")
            return transition(.cycle(offTime: offTime))
        }
        func state() async throws -> PowerStatus { PowerStatus(state: .on, detail: "") }
        func transition(_ action: PowerAction) -> PowerTransition {
            PowerTransition(switchName: name, action: action, verification: .verified(evidence: "1-1.2 left and came back"), elapsed: .zero, steps: [])
        }
    }

    func ladder(_ dongle: FakeDongle, slot: HostSlot, usbReset: Bool, powerSwitch: Bool, clock: LoopClock) -> RecoveryLadder {
        RecoveryLadder.standard(
            adapter: "usb:fake", slot: slot,
            openHost: { try HCIHost(transport: FakeTransport(dongle, clock: clock), commandTimeout: .milliseconds(150)) },
            usbReset: usbReset ? { @Sendable () async throws -> String in dongle.event("usb-reset"); return "USB reset of 1-1.2 done" } : nil,
            powerSwitch: powerSwitch ? FakeSwitch(dongle: dongle) : nil,
            resetTimeout: .milliseconds(150), offTime: .milliseconds(10), settle: .milliseconds(1), clock: clock)
    }

    @Test func aHealthyAdapterAnswersTheFirstRung() async throws {
        try await withVirtualTime { clock in
            let dongle = FakeDongle()
            let slot = HostSlot(try HCIHost(transport: FakeTransport(dongle, clock: clock), commandTimeout: .milliseconds(150)))
            let outcome = await ladder(dongle, slot: slot, usbReset: true, powerSwitch: true, clock: clock).climb()
            guard case .recovered(let rung, let steps) = outcome else { Issue.record("\(outcome)"); return }
            #expect(rung == "HCI Reset" && steps.count == 1)
            #expect(steps[0].duration == .zero, "an answering dongle costs no time")
            #expect(steps[0].outcome.contains("00:AA:01:01:00:42"))
            #expect(dongle.state.withLock { $0.usbResets } == 0)
            await slot.close()
        }
    }

    @Test func aDongleWedgedUntilAUSBResetRecoversAtTheSecondRung() async throws {
        try await withVirtualTime { clock in
            let dongle = FakeDongle()
            let slot = HostSlot(try HCIHost(transport: FakeTransport(dongle, clock: clock), commandTimeout: .milliseconds(150)))
            dongle.state.withLock { $0.wedged = true }
            let outcome = await ladder(dongle, slot: slot, usbReset: true, powerSwitch: false, clock: clock).climb()
            guard case .recovered(let rung, let steps) = outcome else { Issue.record("\(outcome)"); return }
            #expect(rung == "USB reset")
            #expect(steps.map(\.result) == [.failed, .recovered])
            #expect(steps[0].outcome.contains("Reset: no Command Complete or Command Status after"))
            // The Reset's deadline, then the settle time after the USB reset.
            #expect(steps.map(\.duration) == [.milliseconds(150), .milliseconds(1)])
            #expect(await slot.host != nil)
            await slot.close()
        }
    }

    @Test func onlyAPowerCycleHelpsAndWithoutUSBResetThatRungIsSkipped() async throws {
        try await withVirtualTime { clock in
            let dongle = FakeDongle()
            dongle.state.withLock { $0.wedged = true; $0.recoversOn = "power" }
            let slot = HostSlot()
            let outcome = await ladder(dongle, slot: slot, usbReset: false, powerSwitch: true, clock: clock).climb()
            guard case .recovered(let rung, let steps) = outcome else { Issue.record("\(outcome)"); return }
            #expect(rung == "power-cycle hub port")
            #expect(steps.map(\.result) == [.skipped, .skipped, .failed, .recovered])
            // Reopening after the settle time fails at the Reset's deadline; after the cycle it answers.
            #expect(steps.map(\.duration) == [.zero, .zero, .milliseconds(151), .milliseconds(1)])
            #expect(steps[3].outcome.contains("usb-hub:1-1 port 2 cycled"))
            #expect(dongle.state.withLock { $0.cycles } == 1)
            await slot.close()
        }
    }

    @Test func aDongleThatNeverRecoversIsABrokenBench() async throws {
        try await withVirtualTime { clock in
            let dongle = FakeDongle()
            dongle.state.withLock { $0.wedged = true; $0.recoversOn = nil }
            let slot = HostSlot(try HCIHost(transport: FakeTransport(dongle, clock: clock), commandTimeout: .milliseconds(150)))
            let start = clock.now
            let outcome = await ladder(dongle, slot: slot, usbReset: true, powerSwitch: true, clock: clock).climb()
            guard case .broken(let broken) = outcome else { Issue.record("recovered: \(outcome)"); return }
            #expect(broken.steps.map(\.result) == [.failed, .failed, .failed, .failed])
            #expect(broken.steps.map(\.duration) == [.milliseconds(150), .milliseconds(151), .milliseconds(151), .milliseconds(151)])
            #expect(start.duration(to: clock.now) == .milliseconds(603))
            #expect(broken.adapter == "usb:fake")
            #expect(dongle.state.withLock { ($0.usbResets, $0.cycles) } == (1, 1))
            #expect(await slot.host == nil)
        }
    }
}
