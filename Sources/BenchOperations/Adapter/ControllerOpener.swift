import HCI
import HCILinux
import HCIUSB

/// Opens a host on the controller a moniker names, optionally capturing every packet (`CaptureTarget`).
public enum ControllerOpener {
    /// Parses `moniker`, opens its transport, wraps it in a capture when `capture` is given,
    /// and returns a host (not yet reset). Errors say which moniker and what went wrong. The open itself
    /// blocks (a TCP connect within its deadline, an HCI socket bind that retries, libusb) and so runs on a
    /// thread of its own, never on Swift's cooperative pool.
    public static func openHost(moniker text: String, capture: CaptureTarget? = nil,
                                commandTimeout: Duration = .seconds(2)) async throws(HCITransportError) -> HCIHost {
        do {
            return try await offPool { try openHostBlocking(moniker: text, capture: capture, commandTimeout: commandTimeout) }
        } catch let error as HCITransportError {
            throw error
        } catch {
            throw HCITransportError(.io, "\(text): \(error)")
        }
    }

    /// `openHost`, blocking the calling thread: for a thread of the caller's own.
    static func openHostBlocking(moniker text: String, capture: CaptureTarget? = nil,
                                 commandTimeout: Duration = .seconds(2)) throws(HCITransportError) -> HCIHost {
        let moniker = try TransportMoniker(parsing: text)
        let transport: any HCITransport
        switch moniker {
        case .usb(let selector): transport = try USBTransport.open(selector: selector, moniker: moniker.description)
        case .hciSocket(let index): transport = try HCISocketTransport.open(index: index, moniker: moniker.description)
        default: transport = try moniker.openStreamTransport()
        }
        return try makeHost(transport: transport, moniker: text, capture: capture, commandTimeout: commandTimeout)
    }

    /// A host on an opened transport, wrapped in a capture when `capture` is given; the transport is closed
    /// if the host cannot be made.
    public static func makeHost(transport: any HCITransport, moniker: String, capture: CaptureTarget?,
                                commandTimeout: Duration = .seconds(2)) throws(HCITransportError) -> HCIHost {
        var transport = transport
        switch capture {
        case .file(let path):
            do {
                transport = CapturingTransport(transport, writer: try BtsnoopWriter(path: path))
            } catch {
                transport.close()
                throw error
            }
        case .controller(let controller):
            transport = CapturingTransport(transport, destination: .controller(controller, bus: bus(of: moniker)))
        case nil:
            break
        }
        do {
            return try HCIHost(transport: transport, commandTimeout: commandTimeout)
        } catch {
            transport.close()
            throw HCITransportError(.io, "\(moniker): cannot start the host's event loop: \(error)")
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
