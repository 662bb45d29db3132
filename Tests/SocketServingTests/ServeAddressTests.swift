@testable import SocketServing
@testable import AirServer
import Testing

/// Listening addresses: unix sockets and loopback TCP only.
@Suite struct ServeAddressTests {
    @Test(arguments: [
        ("unix:/tmp/hil-air", ServeAddress.unix(path: "/tmp/hil-air")),
        ("tcp:127.0.0.1:6402", .tcp(host: "127.0.0.1", port: 6402)),
        ("tcp:127.1.2.3:0", .tcp(host: "127.1.2.3", port: 0)),
        ("tcp:localhost:9000", .tcp(host: "127.0.0.1", port: 9000)),
        ("tcp:[::1]:9000", .tcp(host: "::1", port: 9000)),
    ])
    func parses(text: String, address: ServeAddress) throws {
        #expect(try ServeAddress(parsing: text) == address)
    }

    @Test(arguments: ["tcp:0.0.0.0:6402", "tcp:192.168.1.5:6402", "tcp:[::]:6402", "tcp::6402", "tcp:example.com:1",
                      "tcp:127.0.0.1:65536", "tcp:127.0.0.1", "unix:", "usb:0", "tcp:128.0.0.1:1", "tcp:127.0.0.256:1"])
    func refuses(text: String) {
        #expect { try ServeAddress(parsing: text) } throws: { error in (error as? ServeError)?.isUsage == true }
    }

    @Test(arguments: [
        ("tcp:0.0.0.0:9001", ServeAddress.tcp(host: "0.0.0.0", port: 9001)),
        ("tcp:192.168.1.5:0", .tcp(host: "192.168.1.5", port: 0)),
        ("tcp:[::]:9001", .tcp(host: "::", port: 9001)),
        ("tcp:127.0.0.1:9001", .tcp(host: "127.0.0.1", port: 9001)),
    ])
    func allowingRemoteTakesAnyNumericAddress(text: String, address: ServeAddress) throws {
        let parsed = try ServeAddress(parsing: text, allowingRemote: true)
        #expect(parsed == address)
        #expect(parsed.isLoopback == text.hasPrefix("tcp:127."))
    }

    @Test(arguments: ["tcp:benchhost:9001", "tcp::9001", "tcp:300.1.1.1:9001", "tcp:[fe80::zz]:1"])
    func allowingRemoteStillRefusesWhatIsNotANumericAddress(text: String) {
        #expect { try ServeAddress(parsing: text, allowingRemote: true) } throws: { error in (error as? ServeError)?.isUsage == true }
    }

    @Test func aUnixSocketIsLoopback() throws {
        #expect(try ServeAddress(parsing: "unix:/tmp/a").isLoopback)
    }

    @Test func refusesASocketPathLongerThanSunPath() {
        #expect(throws: ServeError.self) { try ServeAddress(parsing: "unix:/" + String(repeating: "a", count: 107)) }
    }

    @Test func describesItselfAsTheMonikerItWasParsedFrom() throws {
        for text in ["unix:/tmp/a", "tcp:127.0.0.1:5", "tcp:[::1]:5"] { #expect(try ServeAddress(parsing: text).description == text) }
    }

    @Test func aTCPListenerOnPortZeroReportsTheKernelsPort() throws {
        let socket = try ListeningSocket(.tcp(host: "127.0.0.1", port: 0))
        defer { socket.close() }
        guard case .tcp(_, let port) = socket.address else { Issue.record("not tcp"); return }
        #expect(port != 0)
    }
}
