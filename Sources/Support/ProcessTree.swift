#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The processes a child started, from `/proc` (Linux; empty elsewhere). `swift test` runs the test
/// binary in a process group of its own, so stopping `swift test`'s group does not reach it; stopping a
/// run walks this tree instead, and identifies each process by PID *and* start time so a reused PID is
/// never signalled. A pid file names its process the same way.
package enum ProcessTree {
    /// One process: its PID and its start time (clock ticks after boot, field 22 of `/proc/PID/stat`).
    package struct Entry: Hashable, Sendable {
        package var pid: pid_t
        package var startTime: UInt64
    }

    /// Whether this system shows processes in `/proc` (Linux): where it does not, no process can be told
    /// apart from a later one with its PID.
    package static var identifiesProcesses: Bool { stat(of: getpid()) != nil }

    /// The living process `pid` as it is now, or nil when there is none (or no `/proc`).
    package static func entry(of pid: pid_t) -> Entry? {
        stat(of: pid).map { Entry(pid: pid, startTime: $0.startTime) }
    }

    /// Every living descendant of `root`.
    package static func descendants(of root: pid_t) -> [Entry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var children: [pid_t: [Entry]] = [:]
        for name in names {
            guard let pid = pid_t(name), let stat = stat(of: pid) else { continue }
            children[stat.parent, default: []].append(Entry(pid: pid, startTime: stat.startTime))
        }
        var result: [Entry] = []
        var queue = [root]
        while let next = queue.popLast() {
            for child in children[next] ?? [] where !result.contains(child) {
                result.append(child)
                queue.append(child.pid)
            }
        }
        return result
    }

    /// Whether `entry` is still the same living process.
    package static func isAlive(_ entry: Entry) -> Bool {
        stat(of: entry.pid)?.startTime == entry.startTime
    }

    /// Sends `signal` to each entry still alive as the same process.
    package static func signal(_ entries: [Entry], _ signal: Int32) {
        for entry in entries where isAlive(entry) { _ = kill(entry.pid, signal) }
    }

    /// Parent PID and start time (field 4 and 22 of /proc/PID/stat; the command name in field 2 may hold
    /// spaces and parentheses, so fields are counted after its last ')').
    private static func stat(of pid: pid_t) -> (parent: pid_t, startTime: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so field N is fields[N - 3].
        guard fields.count > 19, let parent = pid_t(fields[1]), let start = UInt64(fields[19]) else { return nil }
        return (parent, start)
    }
}
