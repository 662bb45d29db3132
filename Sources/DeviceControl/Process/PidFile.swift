#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Support

/// The file through which one `hil` invocation stops what another started: it names the process by PID and
/// start time ("PID START", the start in clock ticks after boot as `/proc/PID/stat` gives it), so a file left
/// behind by a process that has ended never gets a later process with the same PID signalled. Where the
/// system has no `/proc` (macOS), the file holds the PID alone and a living PID is taken as the one written.
struct PidFile: Sendable {
    let path: String

    /// What the file says and whether it still holds.
    enum Reading: Equatable {
        /// No file, or one that names no process (empty, not a number).
        case absent
        /// The process it names still runs.
        case running(pid_t)
        /// It names a process that has ended, or whose PID now belongs to another process.
        case stale(pid_t)
    }

    /// Writes `pid` with its start time, atomically.
    func write(_ pid: pid_t) throws {
        let start = ProcessTree.entry(of: pid).map { " \($0.startTime)" } ?? ""
        try "\(pid)\(start)\n".write(toFile: path, atomically: true, encoding: .utf8)
    }

    func read() -> Reading {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return .absent }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard let first = fields.first, let pid = pid_t(first), pid > 0, fields.count <= 2 else { return .absent }
        if ProcessTree.identifiesProcesses {
            // A file without a start time (an older hil's) cannot tell its process from a later one: stale.
            guard fields.count == 2, let start = UInt64(fields[1]),
                  ProcessTree.entry(of: pid)?.startTime == start else { return .stale(pid) }
            return .running(pid)
        }
        return kill(pid, 0) == 0 ? .running(pid) : .stale(pid)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
