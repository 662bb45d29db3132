import Support
import HCITransports
import HostCore
import HCILinux
import HCIUSB

/// Opens a host on the controller a moniker names, optionally capturing every packet (`CaptureTarget`).
package enum ControllerOpener {
    /// Parses `moniker`, opens its transport, wraps it in a capture when `capture` is given,
    /// and returns a host (not yet reset). Errors say which moniker and what went wrong. The open itself
    /// blocks (a TCP connect within its deadline, an HCI socket bind that retries, libusb) and so runs on a
    /// thread of its own, never on Swift's cooperative pool.
    package static func openHost(moniker text: String, capture: CaptureTarget? = nil,
                                commandTimeout: Duration = .seconds(2)) async throws(HCITransportError) -> HCIHost {
        try await blocking(text) { try openHostBlocking(moniker: text, capture: capture, commandTimeout: commandTimeout) }
    }

    /// `openHost`, blocking the calling thread: for a thread of the caller's own.
    static func openHostBlocking(moniker text: String, capture: CaptureTarget? = nil,
                                 commandTimeout: Duration = .seconds(2)) throws(HCITransportError) -> HCIHost {
        try makeHost(transport: try openTransportBlocking(moniker: text), moniker: text, capture: capture, commandTimeout: commandTimeout)
    }

    /// Opens the `usb:` controller `moniker` names and runs its firmware stage, then its quirk stage: for a dongle
    /// btusb would hand to btrtl (`RealtekUSBIDs`) `RealtekFirmwareLoader` downloads the patch from `firmware`
    /// unless the controller runs one already, and for one it would hand to btintel (`IntelUSBIDs`)
    /// `IntelFirmwareLoader` boots a bootloader into the operational firmware of its .sfi and .ddc; `ControllerQuirkStage` applies btusb's quirks for its USB ID and
    /// replaces a public address it cannot trust. A device btusb ignores (`BTUSB_IGNORE`) is not opened. Returns
    /// the host (not yet initialized), what the controller runs and what the quirk stage did; a failed stage
    /// closes the host and throws its error.
    package static func openUSBHost(moniker text: String, capture: CaptureTarget? = nil, commandTimeout: Duration = .seconds(2),
                                    firmware: FirmwareFiles) async throws
        -> (host: HCIHost, firmware: ControllerFirmwareState, quirks: ControllerQuirks) {
        let (host, device, usb) = try await blocking(text) { () throws -> (HCIHost, USBCandidate, USBTransport) in
            guard case .usb(let selector) = try TransportMoniker(parsing: text) else {
                throw HCITransportError(.invalidMoniker, "\(text): not a usb: moniker")
            }
            let transport = try USBTransport.open(selector: selector, moniker: text)
            let device = transport.device
            if let refusal = ControllerQuirkStage(vendor: device.vendor, product: device.product, serial: device.serial, location: device.location).refusal {
                transport.close()
                throw HCITransportError(.unsupported, "\(text): \(refusal)")
            }
            return (try makeHost(transport: transport, moniker: text, capture: capture, commandTimeout: commandTimeout), device, transport)
        }
        let stage = ControllerQuirkStage(vendor: device.vendor, product: device.product, serial: device.serial, location: device.location,
                                         bcdDevice: device.bcdDevice, commandTimeout: commandTimeout)
        do {
            var state = ControllerFirmwareState.notNeeded
            if RealtekUSBIDs.contains(vendor: device.vendor, product: device.product) {
                state = try await RealtekFirmwareLoader(files: firmware, commandTimeout: commandTimeout).load(on: host)
            } else if IntelUSBIDs.contains(vendor: device.vendor, product: device.product) {
                state = try await IntelFirmwareLoader(files: firmware, commandTimeout: commandTimeout).load(on: host) { usb.setIntelBootloader($0) }
            }
            return (host, state, try await stage.run(on: host))
        } catch {
            await host.close()
            throw error
        }
    }

    /// The transport to the controller `moniker` names (not `sim:`, which needs its bench), with no host on
    /// it: for `hil serve`, which hands its packets to a host elsewhere. Blocking opens run on their own thread.
    package static func openTransport(moniker text: String, capture: CaptureTarget? = nil) async throws(HCITransportError) -> any HCITransport {
        try await blocking(text) { try capturing(try openTransportBlocking(moniker: text), moniker: text, capture: capture) }
    }

    /// Runs a blocking open on a thread of its own; an error that is not an `HCITransportError` is named with the moniker.
    private static func blocking<T: Sendable>(_ text: String, _ body: @escaping @Sendable () throws -> T) async throws(HCITransportError) -> T {
        do {
            return try await offPool(body)
        } catch let error as HCITransportError {
            throw error
        } catch {
            throw HCITransportError(.io, "\(text): \(error)")
        }
    }

    /// Opens the transport of a `usb:`, `hci-socket:` or socket/UART moniker, blocking the calling thread.
    static func openTransportBlocking(moniker text: String) throws(HCITransportError) -> any HCITransport {
        let moniker = try TransportMoniker(parsing: text)
        switch moniker {
        case .usb(let selector): return try USBTransport.open(selector: selector, moniker: moniker.description)
        case .hciSocket(let index): return try HCISocketTransport.open(index: index, moniker: moniker.description)
        default: return try moniker.openStreamTransport()
        }
    }

    /// A host on an opened transport, wrapped in a capture when `capture` is given; the transport is closed
    /// if the host cannot be made.
    package static func makeHost(transport: any HCITransport, moniker: String, capture: CaptureTarget?,
                                commandTimeout: Duration = .seconds(2)) throws(HCITransportError) -> HCIHost {
        let transport = try capturing(transport, moniker: moniker, capture: capture)
        do {
            return try HCIHost(transport: transport, commandTimeout: commandTimeout)
        } catch {
            transport.close()
            throw HCITransportError(.io, "\(moniker): cannot start the host's event loop: \(error)")
        }
    }

    /// `transport` wrapped in a capture when `capture` is given (closed when the capture file cannot be made).
    package static func capturing(_ transport: any HCITransport, moniker: String, capture: CaptureTarget?) throws(HCITransportError) -> any HCITransport {
        switch capture {
        case .file(let path, let keys):
            do {
                return CapturingTransport(transport, writer: try BtsnoopWriter(path: path, keys: keys))
            } catch {
                transport.close()
                throw error
            }
        case .controller(let controller):
            return CapturingTransport(transport, destination: .controller(controller, bus: bus(of: moniker)))
        case nil:
            return transport
        }
    }

    /// The bus a monitor capture's New Index names for a moniker's transport (Linux `HCI_USB`, `HCI_UART`,
    /// `HCI_VIRTUAL`).
    static func bus(of moniker: String) -> MonitorCapture.Bus {
        switch try? TransportMoniker(parsing: moniker) {
        case .usb?: .usb
        case .serial?, .unix?, .tcpClient?: .uart
        default: .virtual
        }
    }
}
