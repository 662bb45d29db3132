import BenchOperations
import Foundation

/// What `hil run` was asked to do.
public struct RunOptions: Sendable {
    /// The rig file; nil for `rigs/simulated.json` of the BluetoothHIL package.
    public var rig: URL?
    /// A user's package of suites; nil for the built-in suites.
    public var package: URL?
    /// A regular expression over test IDs.
    public var filter: String?
    /// The results directory.
    public var out: URL
    /// `HIL_REPEAT`.
    public var repeatCount: Int
    /// Deadline for build and tests together.
    public var timeout: Duration
    /// How long to wait for a rig another run holds.
    public var wait: Duration
    /// The command line, recorded in the lock and the results.
    public var command: String
    public var swift: String
    public var lockDirectory: URL
    /// The BluetoothHIL package; nil to locate it (`PackageLocator`).
    public var hilPackage: URL?
    /// How often the event stream, records and progress are polled.
    public var pollInterval: Duration
    /// An already-built test bundle to run directly instead of `swift build` + `swift test` (`--test-bundle`).
    public var testBundle: URL?
    /// Whether the cases' captures keep the keys that pass (`--capture-keys`); redacted by default.
    public var captureKeys = false

    public init(rig: URL? = nil, package: URL? = nil, filter: String? = nil, out: URL, repeatCount: Int = 1,
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
