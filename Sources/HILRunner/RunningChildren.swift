#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support
import Synchronization

/// The children a run has running (`swift build`, `swift test`, a test bundle), for a stop that cannot wait:
/// after a second signal `killAll` ends each at once with everything it started (its process group, its
/// descendants now, and those `ChildSupervisor.stop` saw when it began stopping it — `swift test`'s test
/// process sits in a group of its own).
final class RunningChildren: Sendable {
    private let children = Mutex<[pid_t: [ProcessTree.Entry]]>([:])

    init() {}

    /// `pid` was started.
    func add(_ pid: pid_t) {
        children.withLock { $0[pid] = [] }
    }

    /// While stopping `pid`, these were its descendants.
    func note(_ tree: [ProcessTree.Entry], of pid: pid_t) {
        children.withLock { $0[pid, default: []] += tree }
    }

    /// `pid` ended and was reaped, with what it started.
    func remove(_ pid: pid_t) {
        _ = children.withLock { $0.removeValue(forKey: pid) }
    }

    /// SIGKILL to each child's process group and to every descendant still the process it was; the PIDs of
    /// the children.
    @discardableResult
    func killAll() -> [pid_t] {
        let running = children.withLock { $0 }
        for (pid, seen) in running {
            let tree = ProcessTree.descendants(of: pid) + seen
            _ = kill(-pid, SIGKILL)
            ProcessTree.signal(tree, SIGKILL)
        }
        return running.keys.sorted()
    }
}
