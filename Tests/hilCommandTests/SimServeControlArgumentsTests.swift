@testable import SocketServing
import AirServer
import Foundation
@testable import hil
import Testing

/// `hil sim serve --control ADDRESS`: a Unix socket or a loopback TCP port, never one other hosts reach —
/// the control protocol has no authentication and takes `quit`. Refused through the command's entry point
/// before anything is bound.
@Suite struct SimServeControlArgumentsTests {
    @Test(arguments: ["tcp:0.0.0.0:6403", "tcp:192.168.1.10:6403", "tcp:[::]:6403"])
    func aControlAddressOtherHostsReachIsAUsageError(address: String) async {
        #expect {
            try SimServeCommand.controlAddress(address)
        } throws: { error in
            guard let error = error as? ServeError else { return false }
            return error.isUsage && error.description.hasPrefix("--control '\(address)': ")
                && error.description.hasSuffix("the control socket has no authentication, so it is a unix:PATH (only its owner can connect) or a loopback tcp: port (every local user can)")
        }
        #expect(await SimServeCommand.run(Arguments(["--listen", "unix:/tmp/hil-sim-args", "--control", address])) == .usageError)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/hil-sim-args"))
    }

    @Test(arguments: ["tcp:127.0.0.1:6403", "tcp:[::1]:6403", "unix:/tmp/hil-air.ctl"])
    func aLoopbackOrUnixControlAddressIsTaken(address: String) throws {
        #expect(try SimServeCommand.controlAddress(address).isLoopback)
    }
}
