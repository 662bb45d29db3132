import Support
import DeviceControl
import HCITransports
import HostCore
import HCILinux
import HCIUSB
import Rigs

/// How a bench reaches its central adapter — the Host Controller of Core v5.4 Vol 4 Part A — whatever
/// it is: a controller of the simulated bench (`sim:NAME`, through the rig's runtime), a USB dongle
/// (`usb:`), a kernel adapter (`hci-socket:N`) or an H4 socket. One path opens a host on it, USB-resets
/// it (`libusb_reset_device` for `usb:` adapters and for `hci-socket:` adapters that sysfs shows on USB;
/// the simulated bench's own reset for `sim:`) and builds the recovery ladder that uses both. The
/// suites (HILTesting's `Bench`) and `hil recover` share it.
package struct AdapterAccess: Sendable {
    package let moniker: String
    let parsed: TransportMoniker
    let runtime: SimulatedRigRuntime?
    let sysfs: String
    /// Where a `usb:` adapter's firmware stage finds its files.
    let firmware: FirmwareFiles

    /// `runtime` is the rig's simulated bench, required for `sim:` monikers. A bad moniker, or a `sim:`
    /// moniker without a bench that has that controller, is an `.invalidMoniker` error.
    package init(moniker: String, runtime: SimulatedRigRuntime? = nil, sysfs: String = "/sys",
                 firmware: FirmwareFiles = .standard()) throws(HCITransportError) {
        parsed = try TransportMoniker(parsing: moniker)
        if case .simulated(let name) = parsed {
            guard let runtime else {
                throw HCITransportError(.invalidMoniker, "\(moniker): sim: monikers name a controller of a simulated bench; give the rig that has it (--rig)")
            }
            guard runtime.world.controller(named: name) != nil else {
                let names = runtime.rig.simulation?.controllers.map(\.name).sorted().joined(separator: ", ") ?? ""
                throw HCITransportError(.invalidMoniker, "\(moniker): rig \(runtime.rig.name) has no simulated controller named '\(name)' (it has: \(names))")
            }
        }
        self.moniker = moniker
        self.runtime = runtime
        self.sysfs = sysfs
        self.firmware = firmware
    }

    /// Opens a host on the adapter (not yet initialized), capturing to `capture` when given. Blocking
    /// opens (libusb, an HCI socket bind that retries) run on their own thread. A `usb:` adapter goes
    /// through its firmware stage first (`ControllerOpener.openUSBHost`), at every open: the recovery
    /// ladder's reopen after a USB reset or a power cycle loads the firmware again.
    package func openHost(capture: CaptureTarget? = nil, commandTimeout: Duration = .seconds(2)) async throws -> HCIHost {
        try await openHostReportingFirmware(capture: capture, commandTimeout: commandTimeout).host
    }

    /// `openHost`, with what a `usb:` adapter's firmware and quirk stages found or did (nil for other adapters).
    package func openHostReportingFirmware(capture: CaptureTarget? = nil, commandTimeout: Duration = .seconds(2))
        async throws -> (host: HCIHost, firmware: ControllerFirmwareState?, quirks: ControllerQuirks?) {
        switch parsed {
        case .simulated(let name):
            guard let runtime else { break }
            return (try ControllerOpener.makeHost(transport: try runtime.openTransport(named: name), moniker: moniker,
                                                  capture: capture, commandTimeout: commandTimeout), nil, nil)
        case .usb:
            let opened = try await ControllerOpener.openUSBHost(moniker: moniker, capture: capture, commandTimeout: commandTimeout, firmware: firmware)
            return (opened.host, opened.firmware, opened.quirks)
        default:
            break
        }
        return (try await ControllerOpener.openHost(moniker: moniker, capture: capture, commandTimeout: commandTimeout), nil, nil)
    }

    /// Opens the adapter's transport with no host on it (`hil serve` hands its packets to a host
    /// elsewhere), capturing to `capture` when given. Nothing is sent to the controller.
    package func openTransport(capture: CaptureTarget? = nil) async throws(HCITransportError) -> any HCITransport {
        if case .simulated(let name) = parsed, let runtime {
            return try ControllerOpener.capturing(try runtime.openTransport(named: name), moniker: moniker, capture: capture)
        }
        return try await ControllerOpener.openTransport(moniker: moniker, capture: capture)
    }

    /// Whether `resetUSB()` can work: a simulated adapter, a `usb:` adapter, or an `hci-socket:` adapter on USB.
    package var canResetUSB: Bool {
        switch parsed {
        case .simulated, .usb: return true
        case .hciSocket: return (try? usbSelector()) != nil
        default: return false
        }
    }

    /// A USB reset of the adapter: for real adapters a USB port reset through `libusb_reset_device`, after
    /// which the device re-enumerates (the kernel re-binds btusb for `hci-socket:`); for a simulated one
    /// its controller leaves and comes back fresh. Close every host on the adapter first. Returns what
    /// happened, for the timeline.
    package func resetUSB() async throws -> String {
        if case .simulated(let name) = parsed, let runtime {
            try await runtime.usbReset(adapter: name)
            return "USB reset of \(moniker) (simulated)"
        }
        let selector = try usbSelector()
        let moniker = self.moniker
        let sysfs = self.sysfs
        return try await offPool { try USBTransport.resetDevice(selector: selector, moniker: moniker, sysfs: sysfs) }
    }

    /// The libusb selector of the adapter's USB device.
    func usbSelector() throws(HCITransportError) -> String {
        switch parsed {
        case .usb(let selector):
            return selector
        case .hciSocket(let index):
            let devices: [HCIDevices.Adapter]
            do { devices = try HCIDevices.list(sysfs: sysfs) } catch {
                throw HCITransportError(.notFound, "\(moniker): cannot list the kernel's adapters to find its USB device: \(error)")
            }
            guard let location = devices.first(where: { $0.info.index == index })?.usbLocation else {
                throw HCITransportError(.notFound, "\(moniker): hci\(index) is not a USB adapter (sysfs shows no USB device behind it), so it cannot be USB-reset")
            }
            return location
        default:
            throw HCITransportError(.notFound, "\(moniker): not a USB adapter, so it cannot be USB-reset")
        }
    }

    /// The standard recovery ladder for this adapter: HCI Reset → USB reset (when the adapter can be
    /// reset) → close and reopen → the adapter's own switch port power cycle (when given).
    package func recoveryLadder(slot: HostSlot, powerSwitch: (any PowerSwitch)?, capture: CaptureTarget? = nil,
                               resetTimeout: Duration = .seconds(2), offTime: Duration = .seconds(2)) -> RecoveryLadder {
        let access = self
        let usbReset: (@Sendable () async throws -> String)? = canResetUSB ? { @Sendable in try await access.resetUSB() } : nil
        return RecoveryLadder.standard(adapter: moniker, slot: slot,
                                       openHost: { try await access.openHost(capture: capture, commandTimeout: resetTimeout) },
                                       usbReset: usbReset, powerSwitch: powerSwitch, resetTimeout: resetTimeout, offTime: offTime,
                                       clock: runtime?.world.air.clock ?? .real)
    }
}
