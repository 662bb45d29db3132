import Foundation
import HILResults
import HILRunner
import Testing

/// `hil run --capture-keys` reaches the bench cases as `HIL_CAPTURE_KEYS=1`; without it nothing says to keep
/// the keys, and the cases' captures redact them.
@Suite struct CaptureKeysInvocationTests {
    @Test func captureKeysIsPassedToTheTestsAndOnlyThen() {
        let layout = ResultsLayout(URL(fileURLWithPath: "/tmp/results", isDirectory: true))
        var invocation = SwiftTestInvocation(suites: .builtIn(URL(fileURLWithPath: "/work/main")), filter: nil, layout: layout,
                                             rig: URL(fileURLWithPath: "/work/main/rigs/simulated-secure.json"))
        #expect(invocation.environment["HIL_CAPTURE_KEYS"] == nil)
        invocation.captureKeys = true
        #expect(invocation.environment["HIL_CAPTURE_KEYS"] == "1")
        #expect(RunOptions(out: layout.directory).captureKeys == false)
    }
}
