import Testing
@testable import HCITransports

@Suite struct TransportMonikerTests {
    @Test(arguments: [
        ("unix:/tmp/bt-server-le", TransportMoniker.unix(path: "/tmp/bt-server-le")),
        ("tcp-client:127.0.0.1:6402", .tcpClient(host: "127.0.0.1", port: 6402)),
        ("tcp-client:[::1]:6402", .tcpClient(host: "::1", port: 6402)),
        ("serial:/dev/ttyACM0", .serial(device: "/dev/ttyACM0", baud: 1_000_000, rtscts: false)),
        ("serial:/dev/ttyUSB0,115200,rtscts", .serial(device: "/dev/ttyUSB0", baud: 115_200, rtscts: true)),
        ("usb:2fe3:000b/8A1F44C2", .usb(selector: "2fe3:000b/8A1F44C2")),
        ("hci-socket:0", .hciSocket(index: 0)),
        ("sim:central", .simulated(name: "central")),
    ])
    func parses(text: String, expected: TransportMoniker) throws {
        #expect(try TransportMoniker(parsing: text) == expected)
    }

    @Test(arguments: ["bogus", "unix:", "tcp-client:127.0.0.1", "tcp-client:host:99999", "tcp-client::80",
                      "serial:", "serial:/dev/x,fast", "hci-socket:-1", "hci-socket:x", "bluetooth:0", "sim:"])
    func rejectsWithAClearMessage(text: String) {
        #expect { try TransportMoniker(parsing: text) } throws: { error in
            guard let error = error as? HCITransportError else { return false }
            return error.kind == .invalidMoniker && error.description.contains(text.split(separator: ":").first.map(String.init) ?? text)
        }
    }

    @Test func absentSocketIsNotFound() {
        #expect { try TransportMoniker.unix(path: "/nonexistent/hil.sock").openStreamTransport() } throws: { error in
            (error as? HCITransportError)?.kind == .notFound
        }
    }

    @Test func refusedTCPIsNotFound() {
        // Port 1 on loopback: nothing listens there.
        #expect { try TransportMoniker.tcpClient(host: "127.0.0.1", port: 1).openStreamTransport() } throws: { error in
            (error as? HCITransportError)?.kind == .notFound
        }
    }

    @Test func unsupportedBaudIsRejected() {
        #expect { try TransportMoniker.serial(device: "/dev/null", baud: 12345, rtscts: false).openStreamTransport() } throws: { error in
            (error as? HCITransportError)?.description.contains("12345") == true
        }
    }

    @Test func aFileThatIsNotATerminalIsRejected() {
        #expect { try TransportMoniker.serial(device: "/dev/null", baud: 115_200, rtscts: false).openStreamTransport() } throws: { error in
            (error as? HCITransportError)?.description.contains("not a terminal") == true
        }
    }
}
