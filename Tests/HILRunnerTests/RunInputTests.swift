@testable import BenchOperations
import Foundation
@testable import HILResults
@testable import HILRunner
import Testing
import TestSupport

/// The checks `hil run` makes before it touches the bench: bad input is a usage error, not a crash.
@Suite struct RunInputTests {
    @Test func aPackageWithoutAManifestIsAUsageError() async throws {
        let scratch = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(scratch) }
        let options = RunOptions(rig: scratch.appendingPathComponent("rig.json"), package: scratch, out: scratch.appendingPathComponent("out"),
                                 lockDirectory: scratch.appendingPathComponent("locks"))
        let report = await HILRun.run(options, output: RunOutput(isInteractive: false, out: { _ in }, err: { _ in }))
        #expect(report.outcome == .usageError)
        #expect(report.message?.contains("no Package.swift") == true)
    }

    @Test func aMissingRigFileIsAUsageError() async throws {
        let scratch = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(scratch) }
        try Data("// swift-tools-version: 6.0\n".utf8).write(to: scratch.appendingPathComponent("Package.swift"))
        let options = RunOptions(rig: scratch.appendingPathComponent("absent.json"), package: scratch, out: scratch.appendingPathComponent("out"),
                                 lockDirectory: scratch.appendingPathComponent("locks"))
        let report = await HILRun.run(options, output: RunOutput(isInteractive: false, out: { _ in }, err: { _ in }))
        #expect(report.outcome == .usageError)
        #expect(report.message?.hasSuffix("absent.json: cannot read it (no such file)") == true)
    }

    /// The rig is read with the one rig reader before the lock and the build: a rig the suites would refuse
    /// is exit 3 with its one line on stderr, even while another run holds the rig's lock.
    @Test func aBadRigStopsTheRunBeforeTheLockAndTheBuild() async throws {
        let scratch = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(scratch) }
        try Data("// swift-tools-version: 6.0\n".utf8).write(to: scratch.appendingPathComponent("Package.swift"))
        let rig = scratch.appendingPathComponent("rig.json")
        try Data(#"{"name": "held-rig", "adapter": {"moniker": "usb:0"}, "accessories": [], "budget": {}}"#.utf8).write(to: rig)
        let locks = scratch.appendingPathComponent("locks")
        let held = try await RigLock.acquire(rigName: "held-rig", command: "hil run --rig other-job", directory: locks)
        defer { held.release() }
        let err = EndToEndTests.Collected()
        let options = RunOptions(rig: rig, package: scratch, out: scratch.appendingPathComponent("out"), swift: "/nonexistent/swift", lockDirectory: locks)
        let report = await HILRun.run(options, output: RunOutput(isInteractive: false, out: { _ in }, err: err.append))
        #expect(report.outcome == .usageError)
        #expect(err.text == "hil run: rig file \(rig.path): budget: unknown key; did you mean budgets?\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out").path), "nothing is written for a bad rig")
    }

    @Test func anUnwritableResultsDirectoryIsAUsageError() async throws {
        let scratch = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(scratch) }
        try Data("// swift-tools-version: 6.0\n".utf8).write(to: scratch.appendingPathComponent("Package.swift"))
        try Data(#"{"name": "r", "adapter": {"moniker": "usb:0"}, "accessories": []}"#.utf8).write(to: scratch.appendingPathComponent("rig.json"))
        let blocker = scratch.appendingPathComponent("file")
        try Data().write(to: blocker)
        let options = RunOptions(rig: scratch.appendingPathComponent("rig.json"), package: scratch, out: blocker.appendingPathComponent("out"),
                                 lockDirectory: scratch.appendingPathComponent("locks"))
        let report = await HILRun.run(options, output: RunOutput(isInteractive: false, out: { _ in }, err: { _ in }))
        #expect(report.outcome == .usageError)
        #expect(report.message?.contains("results directory") == true)
    }
}
