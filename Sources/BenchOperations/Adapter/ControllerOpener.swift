import HCI
import HCILinux
import HCIUSB

/// Opens a host on the controller a moniker names, optionally capturing every packet to btsnoop.
public enum ControllerOpener {
    /// Parses `moniker`, opens its transport, wraps it in a btsnoop capture when `capturePath` is given,
    /// and returns a started host. Errors say which moniker and what went wrong.
    public static func openHost(moniker text: String, capturePath: String? = nil,
                                commandTimeout: Duration = .seconds(2)) throws(HCITransportError) -> HCIHost {
        let moniker = try TransportMoniker(parsing: text)
        let transport: any HCITransport
        switch moniker {
        case .usb(let selector): transport = try USBTransport.open(selector: selector, moniker: moniker.description)
        case .hciSocket(let index): transport = try HCISocketTransport.open(index: index, moniker: moniker.description)
        default: transport = try moniker.openStreamTransport()
        }
        return try makeHost(transport: transport, moniker: text, capturePath: capturePath, commandTimeout: commandTimeout)
    }

    /// A host on an opened transport, wrapped in a btsnoop capture when `capturePath` is given; the
    /// transport is closed if the host cannot be made.
    public static func makeHost(transport: any HCITransport, moniker: String, capturePath: String?,
                                commandTimeout: Duration = .seconds(2)) throws(HCITransportError) -> HCIHost {
        var transport = transport
        if let capturePath {
            do {
                transport = CapturingTransport(transport, writer: try BtsnoopWriter(path: capturePath))
            } catch {
                transport.close()
                throw error
            }
        }
        do {
            return try HCIHost(transport: transport, commandTimeout: commandTimeout)
        } catch {
            transport.close()
            throw HCITransportError(.io, "\(moniker): cannot start the host's event loop: \(error)")
        }
    }
}
