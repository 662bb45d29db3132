import Foundation

/// The files of a results directory (`hil run --out DIR`, `HIL_RESULTS`):
///
/// ```
/// DIR/junit.xml  DIR/results.json  DIR/report.html     rendered, re-written after every finished case
/// DIR/records/<case>.json                              one TestRecord per test case (written by the traits)
/// DIR/captures/<case>.btsnoop                          one capture per test case (written by the traits)
/// DIR/captures/<case>.current.csv                      the meter's current trace of a case with a meter
/// DIR/captures/<case>.meter.csv                        what a command meter's program recorded for a case
/// DIR/attachments/*                                    values attached with Swift Testing's `Attachment.record`
/// DIR/.events.jsonl                                    the Swift Testing event stream (version 0)
/// DIR/.progress.jsonl                                  loop progress lines (`LoopProgress`)
/// DIR/.run.json                                        the run's context: rig, host, git commit, command
/// DIR/.swift-test.log                                  the output of `swift build` and `swift test`
/// DIR/.space-reserve                                   space for the last write (`ResultsReserve`), while a run goes on
/// ```
public struct ResultsLayout: Sendable, Hashable {
    public let directory: URL

    public init(_ directory: URL) { self.directory = directory.standardizedFileURL }

    public var records: URL { directory.appendingPathComponent("records", isDirectory: true) }
    public var captures: URL { directory.appendingPathComponent("captures", isDirectory: true) }
    /// Values tests attach with `Attachment.record` (`swift test --attachments-path`).
    public var attachments: URL { directory.appendingPathComponent("attachments", isDirectory: true) }
    public var junit: URL { directory.appendingPathComponent("junit.xml") }
    public var resultsJSON: URL { directory.appendingPathComponent("results.json") }
    public var report: URL { directory.appendingPathComponent("report.html") }
    public var events: URL { directory.appendingPathComponent(".events.jsonl") }
    public var progress: URL { directory.appendingPathComponent(".progress.jsonl") }
    public var runContext: URL { directory.appendingPathComponent(".run.json") }
    public var log: URL { directory.appendingPathComponent(".swift-test.log") }
    /// Space set aside for the run's last write (`ResultsReserve`), there while a run goes on.
    public var reserve: URL { directory.appendingPathComponent(".space-reserve") }

    /// The record file of one test case.
    public func recordURL(for record: TestRecord) -> URL {
        records.appendingPathComponent(Self.caseName(record) + ".json")
    }

    /// Where the capture of one test case goes; `TestRecord.capturePath` is this, relative to the directory
    /// (`captures/<case>.btsnoop`).
    public func captureURL(for record: TestRecord) -> URL {
        captures.appendingPathComponent(Self.caseName(record) + ".btsnoop")
    }

    /// `captures/<case>.btsnoop`, the value for `TestRecord.capturePath`.
    public static func captureRelativePath(for record: TestRecord) -> String {
        "captures/\(caseName(record)).btsnoop"
    }

    /// Where the current trace of one test case goes, beside its capture (`captures/<case>.current.csv`).
    public func traceURL(for record: TestRecord) -> URL {
        captures.appendingPathComponent(Self.caseName(record) + ".current.csv")
    }

    /// `captures/<case>.current.csv`, the value for `CaseTrace.path`.
    public static func traceRelativePath(for record: TestRecord) -> String {
        "captures/\(caseName(record)).current.csv"
    }

    /// Where a `command` meter's program writes its CSV for one test case (`captures/<case>.meter.csv`).
    public func meterRecordingURL(for record: TestRecord) -> URL {
        captures.appendingPathComponent(Self.caseName(record) + ".meter.csv")
    }

    /// Creates the directory with `records/`, `captures/` and `attachments/`, each directory it makes mode 0700
    /// (`PrivateDirectory`); the files in them are written mode 0600 (`AtomicFile`, the captures' writer).
    public func create() throws(ResultsError) {
        for url in [directory, records, captures, attachments] {
            try PrivateDirectory.create(url)
        }
    }

    /// Removes what an earlier run left in this directory — only the files named above, nothing else — so
    /// that its records are not mixed into this run's results.
    public func removePreviousRun() throws(ResultsError) {
        let manager = FileManager.default
        for url in [junit, resultsJSON, report, events, progress, runContext, log, reserve] where manager.fileExists(atPath: url.path) {
            do { try manager.removeItem(at: url) } catch { throw ResultsError(url.path, "cannot remove the previous run's file: \(Self.reason(error))") }
        }
        for (folder, suffix) in [(records, ".json"), (captures, ".btsnoop"), (captures, ".current.csv"), (captures, ".meter.csv"), (attachments, "")] {
            let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where suffix.isEmpty || name.hasSuffix(suffix) {
                let url = folder.appendingPathComponent(name)
                do { try manager.removeItem(at: url) } catch { throw ResultsError(url.path, "cannot remove the previous run's file: \(Self.reason(error))") }
            }
        }
    }

    /// The file-system-safe name of a test case: the test's name path without the module and source
    /// location, then the accessory, the arguments and the repetition, and a hash of all of them (so two
    /// cases never share a name), e.g. `PowerOffTests.powerOffWhileConnected.thermometer-5c1e07a2`.
    public static func caseName(testID: String, accessory: String?, arguments: [String], repetition: Int? = nil) -> String {
        let parsed = TestIDParts(testID)
        var parts = parsed.suitePath + [parsed.function]
        if let accessory { parts.append(accessory) }
        parts += arguments
        if let repetition { parts.append("r\(repetition)") }
        var readable = sanitize(parts.joined(separator: "."))
        if readable.count > 120 { readable = String(readable.prefix(120)) }
        let key = ([testID, accessory ?? "", repetition.map(String.init) ?? ""] + arguments).joined(separator: "\u{1F}")
        return "\(readable)-\(fnv1a(key))"
    }

    /// `caseName(testID:accessory:arguments:repetition:)` of a record.
    public static func caseName(_ record: TestRecord) -> String {
        caseName(testID: record.testID, accessory: record.accessory, arguments: record.arguments, repetition: record.repetition)
    }

    /// Letters, digits, `.`, `_` and `-` are kept; every other run of characters becomes one `_`.
    public static func sanitize(_ text: String) -> String {
        var result = ""
        var lastWasReplacement = false
        for scalar in text.unicodeScalars {
            let keep = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "_" || scalar == "-")
            if keep {
                result.unicodeScalars.append(scalar)
                lastWasReplacement = false
            } else if !lastWasReplacement {
                result += "_"
                lastWasReplacement = true
            }
        }
        while result.hasPrefix(".") { result.removeFirst() }
        return result.isEmpty ? "case" : result
    }

    /// 32-bit FNV-1a of the UTF-8 bytes, as 8 hex digits.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Why a file operation failed, in words: the POSIX reason when Foundation wraps one.
    public static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedFailureReason ?? nsError.localizedDescription
    }
}
