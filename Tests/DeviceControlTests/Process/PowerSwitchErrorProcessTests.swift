@testable import DeviceControl
import Support
import Testing

/// A switch's command that cannot be run is the switch's error of the right kind, which decides `hil power`'s
/// exit status and its advice: a missing program is `.notFound`, an empty command line the rig's mistake.
@Suite struct PowerSwitchErrorProcessTests {
    @Test(arguments: [
        (ProcessError.Kind.invalidCommand, PowerSwitchError.Kind.invalidInput),
        (.notFound, .notFound),
        (.cannotStart, .deviceFailure),
        (.outputStayedOpen, .timeout),
    ])
    func theKindFollowsWhyItCouldNotRun(process: ProcessError.Kind, expected: PowerSwitchError.Kind) {
        let error = PowerSwitchError(ProcessError(process, "cannot start `uhubctl`: No such file or directory"))
        #expect(error.kind == expected)
        #expect(error.message == "cannot start `uhubctl`: No such file or directory")
    }

}
