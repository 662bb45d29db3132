@testable import SocketServing
import AirServer
import Foundation
@testable import hil
import Testing

/// `hil serve`'s arguments that guard the served adapter from its clients, through the command's entry
/// point (each refusal returns before anything is opened or bound).
@Suite struct ServeArgumentsTests {
    @Test(arguments: [("300", Duration.seconds(300)), ("90s", .seconds(90)), ("5m", .seconds(300)), ("1.5m", .seconds(90)),
                      ("2h", .seconds(7200)), ("1d", .seconds(86_400)), ("500ms", .milliseconds(500))])
    func durationsTakeSecondsOrAUnit(text: String, duration: Duration) {
        #expect(Arguments.parseDuration(text) == duration)
    }

    @Test(arguments: ["", "none", "-5", "5x", "m", "nan", "inf", "1e300"])
    func notADuration(text: String) {
        #expect(Arguments.parseDuration(text) == nil)
    }

    @Test(arguments: ["0", "none", "0.5", "8d"])
    func anIdleTimeoutOutsideOneSecondToSevenDaysIsAUsageError(value: String) async {
        #expect(await ServeCommand.run(Arguments(["sim:central", "--listen", "unix:/tmp/hil-serve-args", "--idle-timeout", value])) == .usageError)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/hil-serve-args"))
    }

    @Test func theIdleTimeoutNamesItsRangeAndForms() {
        #expect {
            var arguments = Arguments(["--idle-timeout", "0"])
            _ = try arguments.duration("idle-timeout", in: .seconds(1)...ServeCommand.longestIdleTimeout)
        } throws: { error in
            (error as? UsageError)?.description == "--idle-timeout takes a duration from 1 s to 7 d (seconds, or with a unit: 500ms, 90s, 5m, 2h, 1d), not '0'"
        }
    }

    @Test func anAddressOtherHostsReachIsWarnedAboutAndLoopbackIsNot() throws {
        let warning = ServeCommand.exposureWarning(try ServeAddress(parsing: "tcp:0.0.0.0:9001", allowingRemote: true), moniker: "usb:0")
        #expect(warning == "hil serve: warning: tcp:0.0.0.0:9001 is not loopback: an unauthenticated controller (usb:0) is now exposed on the network; "
            + "anyone who can reach this port can drive it (H4 has no authentication)")
        #expect(ServeCommand.exposureWarning(.tcp(host: "127.0.0.1", port: 9001), moniker: "usb:0") == nil)
        #expect(ServeCommand.exposureWarning(.unix(path: "/tmp/x"), moniker: "usb:0") == nil)
    }
}
