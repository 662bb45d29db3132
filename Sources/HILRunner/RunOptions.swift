import BenchOperations
import Foundation

/// What `hil run` was asked to do.
package struct RunOptions: Sendable {
    /// The rig file; nil for `rigs/simulated.json` of the BluetoothHIL package.
    package var rig: URL?
    /// A user's package of suites; nil for the built-in suites.
    package var package: URL?
    /// A regular expression over test IDs.
    package var filter: String?
    /// The results directory.
    package var out: URL
    /// `HIL_REPEAT`.
    package var repeatCount: Int
    /// Deadline for build and tests together.
    package var timeout: Duration
    /// How long to wait for a rig another run holds.
    package var wait: Duration
    /// The command line, recorded in the lock and the results.
    package var command: String
    package var swift: String
    package var lockDirectory: URL
    /// The BluetoothHIL package; nil to locate it (`PackageLocator`).
    package var hilPackage: URL?
    /// How often the event stream, records and progress are polled.
    package var pollInterval: Duration
    /// An already-built test bundle to run directly instead of `swift build` + `swift test` (`--test-bundle`).
    package var testBundle: URL?
    /// Whether the cases' captures keep the keys that pass (`--capture-keys`); redacted by default.
    package var captureKeys = false

    package init(rig: URL? = nil, package: URL? = nil, filter: String? = nil, out: URL, repeatCount: Int = 1,
                timeout: Duration = .seconds(30 * 60), wait: Duration = .zero, command: String = "hil run",
                swift: String = ProcessInfo.processInfo.environment["HIL_SWIFT"] ?? "swift",
                lockDirectory: URL = RigLock.defaultDirectory(), hilPackage: URL? = nil, pollInterval: Duration = .milliseconds(100),
                testBundle: URL? = nil) {
        self.testBundle = testBundle
        self.rig = rig
        self.package = package
        self.filter = filter
        self.out = out
        self.repeatCount = repeatCount
        self.timeout = timeout
        self.wait = wait
        self.command = command
        self.swift = swift
        self.lockDirectory = lockDirectory
        self.hilPackage = hilPackage
        self.pollInterval = pollInterval
    }
}
