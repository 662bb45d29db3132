/// Where a controller is, named the way Bumble users already write it.
///
/// `unix:PATH`, `tcp-client:HOST:PORT`, `serial:DEVICE[,BAUD][,rtscts]`, `usb:INDEX`, `usb:VID:PID`,
/// `usb:VID:PID/SERIAL`, `usb:BUS-PORT.PORT…`, `hci-socket:N`, `sim:NAME`.
public enum TransportMoniker: Hashable, Sendable, CustomStringConvertible {
    case unix(path: String)
    case tcpClient(host: String, port: UInt16)
    case serial(device: String, baud: Int, rtscts: Bool)
    case usb(selector: String)
    case hciSocket(index: Int)
    case simulated(name: String)

    /// The default UART speed when a `serial:` moniker names none.
    public static let defaultBaud = 1_000_000

    public init(parsing text: String) throws(HCITransportError) {
        guard let colon = text.firstIndex(of: ":") else {
            throw HCITransportError(.invalidMoniker, "'\(text)' is not a transport moniker (expected e.g. unix:/tmp/bt-server-le, tcp-client:127.0.0.1:6402, serial:/dev/ttyACM0,1000000, usb:0, hci-socket:0, sim:central)")
        }
        let scheme = String(text[..<colon])
        let rest = String(text[text.index(after: colon)...])
        func bad(_ why: String) -> HCITransportError { HCITransportError(.invalidMoniker, "'\(text)': \(why)") }
        switch scheme {
        case "unix":
            guard !rest.isEmpty else { throw bad("unix: needs a socket path") }
            self = .unix(path: rest)
        case "tcp-client":
            guard let portColon = rest.lastIndex(of: ":") else { throw bad("tcp-client: needs HOST:PORT") }
            var host = String(rest[..<portColon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw bad("tcp-client: needs a host before the port") }
            guard let port = UInt16(rest[rest.index(after: portColon)...]), port > 0 else {
                throw bad("'\(rest[rest.index(after: portColon)...])' is not a TCP port (1-65535)")
            }
            self = .tcpClient(host: host, port: port)
        case "serial":
            let parts = rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let device = parts.first, !device.isEmpty else { throw bad("serial: needs a device path") }
            var baud = TransportMoniker.defaultBaud
            var rtscts = false
            for part in parts.dropFirst() {
                if part == "rtscts" { rtscts = true } else if let value = Int(part), value > 0 { baud = value } else {
                    throw bad("'\(part)' is neither a baud rate nor 'rtscts'")
                }
            }
            self = .serial(device: device, baud: baud, rtscts: rtscts)
        case "usb":
            guard !rest.isEmpty else { throw bad("usb: needs an index, VID:PID[/SERIAL] or a location path") }
            self = .usb(selector: rest)
        case "hci-socket":
            guard let index = Int(rest), index >= 0 else { throw bad("hci-socket: needs an adapter number, e.g. hci-socket:0") }
            self = .hciSocket(index: index)
        case "sim":
            guard !rest.isEmpty else { throw bad("sim: needs the name of a simulated controller, e.g. sim:central") }
            self = .simulated(name: rest)
        default:
            throw bad("unknown transport '\(scheme)' (known: unix, tcp-client, serial, usb, hci-socket, sim)")
        }
    }

    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcpClient(let host, let port): host.contains(":") ? "tcp-client:[\(host)]:\(port)" : "tcp-client:\(host):\(port)"
        case .serial(let device, let baud, let rtscts): "serial:\(device),\(baud)\(rtscts ? ",rtscts" : "")"
        case .usb(let selector): "usb:\(selector)"
        case .hciSocket(let index): "hci-socket:\(index)"
        case .simulated(let name): "sim:\(name)"
        }
    }

    /// Opens the transports that live in this module (sockets and UARTs). `sim:`, `usb:` and
    /// `hci-socket:` are opened by the layers that provide them.
    public func openStreamTransport() throws(HCITransportError) -> any HCITransport {
        switch self {
        case .unix(let path): return try FileDescriptorTransport.unix(path: path, moniker: description)
        case .tcpClient(let host, let port): return try FileDescriptorTransport.tcp(host: host, port: port, moniker: description)
        case .serial(let device, let baud, let rtscts):
            return try FileDescriptorTransport.serial(device: device, baud: baud, rtscts: rtscts, moniker: description)
        case .usb, .hciSocket, .simulated:
            throw HCITransportError(.unsupported, "\(description): this transport is not available in this build yet")
        }
    }
}
