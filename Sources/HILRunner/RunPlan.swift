import Foundation
import HILResults
import Rigs

/// What a run will do, settled before anything is locked or built: which suites (the built-in ones or a
/// user's package), on which rig (read and checked with the one rig reader), into which results directory
/// (created, the previous run's files removed). Every problem found here is a usage error in one line.
struct RunPlan: Sendable {
    var suites: SwiftTestInvocation.Suites
    var rigURL: URL
    var rig: Rig
    var layout: ResultsLayout

    /// A one-line reason the run cannot start as asked.
    struct Problem: Error, Sendable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static func make(_ options: RunOptions) -> Result<RunPlan, Problem> {
        let hilPackage = options.hilPackage ?? PackageLocator.bluetoothHIL()
        let suites: SwiftTestInvocation.Suites
        if let package = options.package {
            let directory = package.standardizedFileURL
            guard PackageLocator.isPackage(directory) else { return .failure(Problem("--package \(package.path): no Package.swift there")) }
            suites = .package(directory)
        } else {
            guard let hilPackage else {
                return .failure(Problem("cannot find the BluetoothHIL package above the hil executable or the current directory; set HIL_PACKAGE_DIR, or run your own suites with --package PATH"))
            }
            suites = .builtIn(hilPackage)
        }
        guard let rigURL = options.rig?.standardizedFileURL ?? hilPackage?.appendingPathComponent("rigs/simulated.json") else {
            return .failure(Problem("no --rig given, and there is no BluetoothHIL package for the default rigs/simulated.json"))
        }
        // The rig is read and checked before anything else (the lock, the build): a rig the suites would
        // refuse is a usage error here, in one line.
        let rig: Rig
        do { rig = try Rig.load(path: rigURL.path) } catch { return .failure(Problem(error.description)) }
        if let bundle = options.testBundle, !FileManager.default.isExecutableFile(atPath: bundle.path) {
            return .failure(Problem("--test-bundle \(bundle.path): no executable test bundle there (build one with `swift build --build-tests`)"))
        }
        let layout = ResultsLayout(options.out)
        do {
            try layout.create()
            try layout.removePreviousRun()
        } catch {
            return .failure(Problem("results directory: \(error)"))
        }
        return .success(RunPlan(suites: suites, rigURL: rigURL, rig: rig, layout: layout))
    }
}
