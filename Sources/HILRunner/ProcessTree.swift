#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The processes a child started, from `/proc` (Linux; empty elsewhere). `swift test` runs the test
/// binary in a process group of its own, so stopping `swift test`'s group does not reach it; stopping a
/// run walks this tree instead, and identifies each process by PID *and* start time so a reused PID is
/// never signalled.
enum ProcessTree {
    struct Entry: Hashable, Sendable {
        var pid: pid_t
        var startTime: UInt64
    }

    /// Every living descendant of `root`.
    static func descendants(of root: pid_t) -> [Entry] {
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
    static func isAlive(_ entry: Entry) -> Bool {
        stat(of: entry.pid)?.startTime == entry.startTime
    }

    /// Sends `signal` to each entry still alive as the same process.
    static func signal(_ entries: [Entry], _ signal: Int32) {
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

/// The last bytes a child wrote, for error messages.
final class OutputTail: Sendable {
    private let state = Mutex<[UInt8]>([])
    private let limit: Int

    init(limit: Int = 16384) { self.limit = limit }

    func append(_ bytes: [UInt8]) {
        state.withLock { buffer in
            buffer += bytes
            if buffer.count > limit { buffer.removeFirst(buffer.count - limit) }
        }
    }

    /// The last `count` non-empty lines, preferring lines with `error:`.
    func lines(_ count: Int) -> [String] {
        let text = state.withLock { String(decoding: $0, as: UTF8.self) }
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        let errors = lines.filter { $0.contains("error:") }
        return Array((errors.isEmpty ? lines : errors).suffix(count))
    }
}
