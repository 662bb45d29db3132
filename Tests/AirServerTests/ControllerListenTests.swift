import SocketServing
import AirServer
import Testing

/// `--listen-controller NAME=ADDRESS`: the name before the first `=`, the address after it as `--listen`
/// reads one; without a name or an `=` it is a usage error that names the option and shows the form.
@Suite struct ControllerListenTests {
    @Test func splitsAtTheFirstEqualsSign() throws {
        let claim = try SimulatedAirServer.ControllerListen(parsing: "central=unix:/tmp/hil=central")
        #expect(claim.controller == "central")
        #expect(claim.address == .unix(path: "/tmp/hil=central"))
        let tcp = try SimulatedAirServer.ControllerListen(parsing: "peripheral=tcp:localhost:6402")
        #expect(tcp.address == .tcp(host: "127.0.0.1", port: 6402))
    }

    @Test(arguments: ["central", "=unix:/tmp/hil-central", ""])
    func withoutANameOrAnEqualsSignItIsAUsageError(text: String) {
        let error = #expect(throws: ServeError.self) { try SimulatedAirServer.ControllerListen(parsing: text) }
        #expect(error?.isUsage == true)
        #expect(error?.description == "--listen-controller '\(text)': expected NAME=ADDRESS (e.g. central=unix:/tmp/hil-central)")
    }

    /// The address is refused as `--listen` refuses it: not on another host.
    @Test func anAddressOffThisHostIsRefusedAsForListen() {
        let error = #expect(throws: ServeError.self) { try SimulatedAirServer.ControllerListen(parsing: "central=tcp:192.168.1.10:6402") }
        #expect(error?.isUsage == true)
        #expect(error?.description.hasPrefix("'tcp:192.168.1.10:6402': '192.168.1.10' is not a loopback address") == true)
    }
}
