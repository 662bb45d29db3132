import Foundation
import HILResults

/// The `swift build` and `swift test` command lines of a run, and the environment its tests see.
///
/// - Built-in suites: in the BluetoothHIL package, `--filter '^HILTests\.'` narrowed by the user's filter
///   (Swift Testing ORs repeated `--filter`s, so the two are combined into one regular expression).
/// - `--package PATH`: that package's tests, with the user's filter as given.
///
/// Tests run one at a time (`--no-parallel`: one bench), and Swift Testing writes its event stream
/// (version 0) to `.events.jsonl` in the results directory. The tests find the bench and the results
/// directory in `HIL_RIG` (absolute path of the rig file), `HIL_RESULTS` and `HIL_REPEAT`.
///
/// With a `testBundle` (`hil run --test-bundle PATH`) nothing is built and SwiftPM is not needed: the
/// already-built bundle runs exactly as `swift test` runs it on Linux for Swift Testing — the bundle
/// with the same arguments and `--testing-library swift-testing` — for machines (a bench, a QEMU guest)
/// that have the Swift runtime but no toolchain time to spare.
package struct SwiftTestInvocation: Sendable, Hashable {
    package enum Suites: Sendable, Hashable {
        /// The standard transition suites (`Tests/HILTests`) of the BluetoothHIL package at this path.
        case builtIn(URL)
        /// A user's package of their own suites.
        case package(URL)

        package var directory: URL {
            switch self {
            case .builtIn(let url), .package(let url): return url
            }
        }
    }

    package var suites: Suites
    /// The user's `--filter` (a regular expression over test IDs), if any.
    package var filter: String?
    package var layout: ResultsLayout
    /// Absolute path of the rig file.
    package var rig: URL
    package var repeatCount: Int
    /// The `swift` to run (`HIL_SWIFT`, else `swift` from PATH).
    package var swift: String
    /// An already-built test bundle (`.build/debug/BluetoothHILPackageTests.xctest`) to run directly; nil
    /// to build and run through SwiftPM.
    package var testBundle: URL?
    /// Whether the cases' captures keep the keys (`HIL_CAPTURE_KEYS=1`, `hil run --capture-keys`).
    package var captureKeys = false

    package init(suites: Suites, filter: String?, layout: ResultsLayout, rig: URL, repeatCount: Int = 1, swift: String = "swift",
                testBundle: URL? = nil) {
        self.testBundle = testBundle
        self.suites = suites
        self.filter = filter
        self.layout = layout
        self.rig = rig
        self.repeatCount = repeatCount
        self.swift = swift
    }

    /// The one `--filter` for `swift test`, or nil for every test.
    package var combinedFilter: String? {
        switch suites {
        case .builtIn:
            guard let filter, !filter.isEmpty else { return "^HILTests\\." }
            return "^HILTests\\..*(?:\(filter))"
        case .package:
            guard let filter, !filter.isEmpty else { return nil }
            return filter
        }
    }

    /// `swift build --build-tests …`; nil with a `testBundle` (nothing to build).
    package var buildCommand: [String]? {
        testBundle == nil ? [swift, "build", "--build-tests", "--package-path", suites.directory.path] : nil
    }

    package var testCommand: [String] {
        let head = testBundle.map { [$0.path] } ?? [swift, "test", "--skip-build", "--package-path", suites.directory.path]
        var command = head + ["--no-parallel", "--event-stream-output-path", layout.events.path, "--event-stream-version", "0",
                              "--attachments-path", layout.attachments.path]
        if let filter = combinedFilter { command += ["--filter", filter] }
        if testBundle != nil { command += ["--testing-library", "swift-testing"] }
        return command
    }

    /// What the tests read: `HIL_RIG`, `HIL_RESULTS`, `HIL_REPEAT`, `HIL_RUNNER_PID` (this process: the
    /// tests end themselves when it is gone, `RunnerWatchdog`), and `HIL_CAPTURE_KEYS=1` with `captureKeys`.
    package var environment: [String: String] {
        var environment = ["HIL_RIG": rig.path, "HIL_RESULTS": layout.directory.path, "HIL_REPEAT": String(repeatCount),
                           "HIL_RUNNER_PID": String(getpid())]
        if captureKeys { environment["HIL_CAPTURE_KEYS"] = "1" }
        return environment
    }
}
