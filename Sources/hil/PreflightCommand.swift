import Foundation
import Preflight

/// `hil preflight`: lint an app's Bluetooth declarations (Info.plist, IPA, AndroidManifest.xml, APK).
enum PreflightCommand {
    static let usage = """
    usage: hil preflight ios FILE [--deployment-target VERSION] [--uses LIST] [options]
           hil preflight android FILE [--min-sdk N] [--target-sdk N] [--uses LIST] [options]
           hil preflight --rules

    Lints an app's Bluetooth declarations before store submission.
      ios FILE       an Info.plist (XML or binary) or an .ipa (reads Payload/*.app/Info.plist)
      android FILE   an AndroidManifest.xml (source, merged or binary) or an .apk

    options:
      --deployment-target VERSION  iOS deployment target (default: MinimumOSVersion in the plist)
      --min-sdk N, --target-sdk N  Android API levels (default: <uses-sdk> in the manifest)
      --uses LIST                  what the app does, comma-separated (default: inferred, and said so)
                                     ios: central, peripheral, background-central, background-peripheral
                                     android: scan, connect, advertise, location, beacons, background, companion
      --format FORMAT              text (default), json, sarif (SARIF 2.1.0) or junit
      --output FILE                write the report to FILE instead of standard output
      --root DIR                   SARIF: file URIs relative to DIR, as %SRCROOT% (default: the repository
                                     holding FILE, the first directory up from it with .git; else FILE's directory)
      --strict                     fail on warnings as well as errors
      --explain                    add how and when the system asks the user for Bluetooth permission
      --rules                      list every rule (ID, severity, summary, source) and exit

    exit status: 0 no errors; 1 errors found (or warnings, with --strict);
                 3 bad command line, or an unreadable or malformed file
    """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        do {
            if arguments.flag("help") || arguments.flag("h") {
                print(usage)
                return .success
            }
            if arguments.flag("rules") {
                try arguments.finish()
                print(rulesListing(), terminator: "")
                return .success
            }
            let formatName = try arguments.option("format") ?? "text"
            guard let format = ReportFormat(rawValue: formatName.lowercased()) else {
                throw UsageError("--format takes text, json, sarif or junit, not '\(formatName)'")
            }
            let output = try arguments.option("output")
            let root = try sourceRoot(arguments.option("root"))
            let strict = arguments.flag("strict")
            let explain = arguments.flag("explain")
            let usesText = try arguments.option("uses")
            let deploymentTarget = try arguments.option("deployment-target")
            let minSdk = try arguments.option("min-sdk")
            let targetSdk = try arguments.option("target-sdk")
            guard let platformName = arguments.positional() else {
                throw UsageError("missing platform: ios or android")
            }
            if platformName == "-h" || platformName == "help" {
                print(usage)
                return .success
            }
            guard let platform = Platform(rawValue: platformName.lowercased()) else {
                throw UsageError("unknown platform '\(platformName)': ios or android")
            }
            let path = try arguments.required("FILE (an \(platform == .ios ? "Info.plist or .ipa" : "AndroidManifest.xml or .apk"))")
            try arguments.finish()

            let report: Report
            switch platform {
            case .ios:
                if minSdk != nil || targetSdk != nil { throw UsageError("--min-sdk and --target-sdk are for android") }
                var options = IOSOptions(explain: explain)
                if let deploymentTarget {
                    guard let version = OSVersion(deploymentTarget) else {
                        throw UsageError("--deployment-target takes a version such as 12.0 or 15.4, not '\(deploymentTarget)'")
                    }
                    options.deploymentTarget = version
                }
                if let usesText { options.uses = try parseUses(usesText, as: IOSUse.self) }
                report = try Preflight.lintIOS(path: path, options: options)
            case .android:
                if deploymentTarget != nil { throw UsageError("--deployment-target is for ios") }
                var options = AndroidOptions(explain: explain)
                options.minSdk = try apiLevel(minSdk, "min-sdk")
                options.targetSdk = try apiLevel(targetSdk, "target-sdk")
                if let usesText { options.uses = try parseUses(usesText, as: AndroidUse.self) }
                report = try Preflight.lintAndroid(path: path, options: options)
            }

            let text = format.render(report, strict: strict, root: root)
            if let output {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: output))
                } catch {
                    fail("cannot write \(output): \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
                    return .usageError
                }
                if format != .text { StandardStreams.error("hil preflight: \(report.countsSummary) written to \(output)\n") }
            } else {
                print(text, terminator: "")
            }
            return report.fails(strict: strict) ? .productFailure : .success
        } catch let error as UsageError {
            fail("\(error.description) (see 'hil preflight --help')")
            return .usageError
        } catch let error as PreflightError {
            fail(error.description)
            return .usageError
        } catch {
            fail("\(error)")
            return .usageError
        }
    }

    private static func fail(_ message: String) {
        StandardStreams.error("hil preflight: \(message.escapingControlCharacters)\n")
    }

    /// `--root DIR`, which must be a directory.
    private static func sourceRoot(_ directory: String?) throws(UsageError) -> SourceRoot? {
        guard let directory else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--root takes a directory, not '\(directory)'")
        }
        return SourceRoot(directory: directory)
    }

    private static func apiLevel(_ text: String?, _ name: String) throws(UsageError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), (1...100).contains(value) else {
            throw UsageError("--\(name) takes an API level from 1 to 100, not '\(text)'")
        }
        return value
    }

    private static func parseUses<Use: RawRepresentable & CaseIterable & Hashable>(_ text: String, as: Use.Type) throws(UsageError) -> Set<Use> where Use.RawValue == String {
        var uses: Set<Use> = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !word.isEmpty {
            guard let use = Use(rawValue: word) else {
                throw UsageError("--uses: unknown use '\(word)'; one of \(Use.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            uses.insert(use)
        }
        return uses
    }

    private static func rulesListing() -> String {
        var lines: [String] = []
        for rule in RuleCatalog.all {
            lines.append("\(rule.id)  \(rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(rule.summary)")
            for source in rule.sources { lines.append("         source: \(source.title) <\(source.url)>") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
