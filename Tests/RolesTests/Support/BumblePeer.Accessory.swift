// Test kind: peer — a Bumble child process and its output, waited for on real time.
import Support
import DeviceControl
import Foundation
import Synchronization

extension BumblePeer {
    /// A running Bumble accessory (a DeviceControl `ChildProcess` in its own process group); `stop()`
    /// ends it, and only it: the group this helper started.
    final class Accessory: Sendable {
        let child: ChildProcess
        let address: String
        let output: Log
        /// Reads the child's events to their end, so its pipes never fill.
        let reader: Task<Void, Never>

        init(child: ChildProcess, address: String, output: Log, reader: Task<Void, Never>) {
            self.child = child
            self.address = address
            self.output = output
            self.reader = reader
        }

        /// SIGTERM to its group, then SIGKILL if it has not ended within 3 s (Bumble closes its transport
        /// and exits in milliseconds; 3 s is room for a loaded machine before the harder signal); then waits
        /// for its end by polling, never blocking a thread of the pool.
        func stop() async {
            if !output.ended { child.signalGroup(SIGTERM) }
            if await output.wait(within: .seconds(3), until: { $0.ended ? true : nil }) == nil { child.signalGroup(SIGKILL) }
            await reader.value
        }

        /// What the accessory printed on standard output so far, and whether it has ended.
        final class Log: Sendable {
            struct State {
                var stdout: [UInt8] = []
                var ended = false
            }

            private let state = Mutex(State())

            func record(_ event: ChildEvent) {
                state.withLock { state in
                    switch event {
                    case .stdout(let bytes): state.stdout += bytes
                    case .stderr: break
                    case .ended: state.ended = true
                    }
                }
            }

            var ended: Bool { state.withLock { $0.ended } }

            /// Its first line of standard output (all of it if it ended without a newline), or nil
            /// when none came within `timeout`.
            func firstLine(within timeout: Duration) async -> String? {
                await wait(within: timeout) { state in
                    if let newline = state.stdout.firstIndex(of: 0x0A) {
                        return String(decoding: state.stdout[..<newline], as: UTF8.self)
                    }
                    return state.ended ? String(decoding: state.stdout, as: UTF8.self) : nil
                }
            }

            /// Polls `condition` every 10 ms for at most `timeout`; its first non-nil answer. (A child's output
            /// arrives on its reader's task; 10 ms is fine-grained next to a Python process's pace.)
            func wait<T: Sendable>(within timeout: Duration, until condition: (State) -> T?) async -> T? {
                let deadline = ContinuousClock.now.advanced(by: timeout)
                while ContinuousClock.now < deadline {
                    if let value = state.withLock({ condition($0) }) { return value }
                    try? await Task.sleep(for: .milliseconds(10))
                }
                return nil
            }
        }
    }
}
