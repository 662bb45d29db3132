import Foundation
import HILRunner

/// `hil run [--rig RIG.json] [--package PATH] [--filter REGEX] [--out DIR] [--repeat N] [--timeout S]
/// [--wait S] [--test-bundle PATH] [--quiet]`: the standard transition suites (or a package's own) under Swift Testing, on one
/// locked rig, with captures, timelines and reports.
enum RunCommand {
    static let usage = """
    usage: hil run [--rig RIG.json] [--package PATH] [--filter REGEX] [--out DIR] [--repeat N]
                   [--timeout SECONDS] [--wait SECONDS] [--test-bundle PATH] [--capture-keys] [--quiet]

    Runs the standard transition suites (Tests/HILTests of BluetoothHIL), or with --package the suites of
    your own package, under Swift Testing on the rig, and writes into DIR: junit.xml, results.json,
    report.html, records/*.json and captures/*.btsnoop (re-written after every finished test case); DIR and its
    folders are created mode 0700, the files 0600.
      --rig RIG.json      the bench (default: rigs/simulated.json of BluetoothHIL); locked for the run
      --package PATH      run the tests of the Swift package at PATH instead of the built-in suites
      --filter REGEX      only tests whose ID matches (e.g. PowerOff)
      --out DIR           results directory (default: results/<rig>-<date>-<time>)
      --repeat N          loops repeat N times (HIL_REPEAT, default 1)
      --timeout SECONDS   deadline for build and tests together (default 1800)
      --wait SECONDS      wait this long for a rig (or the rig's labgrid place) another run holds (default 0: fail at once)
      --test-bundle PATH  run this already-built test bundle (e.g. .build/debug/BluetoothHILPackageTests.xctest)
                          directly, as swift test runs it, without swift build or SwiftPM (a bench or a guest
                          with the Swift runtime and a tree built elsewhere); with --package, that package's
                          bundle and the filter as given
      --capture-keys      keep the keys in the captures (LTK, IRK, CSRK, pairing values) for a Wireshark that
                          decrypts the link; by default each is replaced by REDACTED… of the same length
      --quiet             one machine-readable line per test case (also when stdout is not a terminal)

    exit status: 0 all passed (skips allowed); 1 an accessory failed; 2 infrastructure error (the bench,
                 the lock, the build, a hang, a run cut short); 3 bad command line, rig file or package;
                 130 SIGINT, 143 SIGTERM (the results say the run was interrupted; a second signal stops at once)
    environment: HIL_LOCK_DIR (default /tmp/hil-locks), HIL_PACKAGE_DIR, HIL_SWIFT (default swift)
    """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        var options: RunOptions
        let quiet: Bool
        let captureKeys: Bool
        do {
            quiet = arguments.flag("quiet")
            captureKeys = arguments.flag("capture-keys")
            let rig = try arguments.option("rig")
            let package = try arguments.option("package")
            let filter = try arguments.option("filter")
            let out = try arguments.option("out")
            let repeatCount = try arguments.number("repeat", in: 1...100_000)
            let timeout = try arguments.number("timeout", in: 1...86_400) ?? 1800
            let wait = try arguments.number("wait", in: 0...86_400) ?? 0
            let testBundle = try arguments.option("test-bundle")
            try arguments.finish()
            if let repeatCount, repeatCount != repeatCount.rounded() { throw UsageError("--repeat takes a whole number, not \(repeatCount)") }
            if let filter {
                do { _ = try NSRegularExpression(pattern: filter) } catch { throw UsageError("--filter '\(filter)' is not a regular expression") }
            }
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let rigURL = rig.map { URL(fileURLWithPath: expandTilde($0), relativeTo: cwd).standardizedFileURL }
            let outURL = URL(fileURLWithPath: expandTilde(out ?? defaultOut(rig: rigURL)), relativeTo: cwd).standardizedFileURL
            options = RunOptions(rig: rigURL, package: package.map { URL(fileURLWithPath: expandTilde($0), relativeTo: cwd).standardizedFileURL },
                                 filter: filter, out: outURL, repeatCount: Int(repeatCount ?? 1),
                                 timeout: .milliseconds(Int64(timeout * 1000)), wait: .milliseconds(Int64(wait * 1000)),
                                 command: (["hil"] + CommandLine.arguments.dropFirst()).joined(separator: " "),
                                 testBundle: testBundle.map { URL(fileURLWithPath: expandTilde($0), relativeTo: cwd).standardizedFileURL })
        } catch {
            return Diagnostics.usageError("run", error)
        }
        options.captureKeys = captureKeys
        let report = await HILRun.runHandlingSignals(options, output: .standard(quiet: quiet))
        return ExitStatus(rawValue: report.exitStatus) ?? .infrastructureError
    }

    /// `results/<rig>-YYYYMMDD-HHMMSS`.
    static func defaultOut(rig: URL?) -> String {
        var seconds = time_t(Date().timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
        let name = rig?.deletingPathExtension().lastPathComponent ?? "simulated"
        return "results/\(name)-\(stamp)"
    }

    static func expandTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] else { return path }
        return home + path.dropFirst()
    }
}
