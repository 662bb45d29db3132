#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Support

/// Progress of a loop inside a test case (a power cycle ×100): the traits append one line per iteration
/// to `$HIL_RESULTS/.progress.jsonl`, and `hil run` shows a counter and an ETA for the running case.
public struct LoopProgress: Codable, Sendable, Hashable {
    /// Swift Testing's test ID, `String(describing: Test.current!.id)`.
    public var testID: String
    public var accessory: String?
    /// What is counted, e.g. "power cycles".
    public var label: String
    public var done: Int
    public var total: Int
    public var time: Date

    public init(testID: String, accessory: String? = nil, label: String, done: Int, total: Int, time: Date = Date()) {
        self.testID = testID
        self.accessory = accessory
        self.label = label
        self.done = done
        self.total = total
        self.time = time
    }

    /// Appends this line to `.progress.jsonl` in the results directory named by `HIL_RESULTS`; does nothing
    /// when it is unset (a test run without `hil run`). Best effort: progress never fails a test.
    public func report(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let directory = environment["HIL_RESULTS"], !directory.isEmpty else { return }
        guard var data = try? TestRecord.makeEncoder(pretty: false).encode(self) else { return }
        data.append(0x0A)
        let path = ResultsLayout(URL(fileURLWithPath: directory, isDirectory: true)).progress.path
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode_t(AtomicFile.mode))
        guard fd >= 0 else { return }
        // One write(2) per line: appends of one line do not interleave.
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// "37/100 power cycles · ETA 1 min 12 s", the ETA from the pace since an earlier line of the same loop.
    public func text(since first: LoopProgress?) -> String {
        var text = "\(done)/\(total) \(label)"
        if let first, done > first.done, total > done {
            let pace = time.timeIntervalSince(first.time) / (Double(done) - Double(first.done))
            text += " · ETA \(ProgressText.duration(pace * (Double(total) - Double(done))))"
        }
        return text
    }
}
