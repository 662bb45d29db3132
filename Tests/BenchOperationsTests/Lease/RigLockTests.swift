@testable import BenchOperations
import Foundation
import Roles
@testable import HILResults
import Synchronization
import Testing
import TestSupport

/// The rig lock in one process: a second open file description of the lock file is a second runner. Waits
/// and takeovers are on a stepped clock the test advances, so a wait ends exactly when the lock promises.
/// (Another process holding the lock is `RigLockProcessTests`.)
@Suite struct RigLockTests {
    final class Notices: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ text: String) { storage.withLock { $0.append(text) } }
        var all: [String] { storage.withLock { $0 } }
    }

    @Test func aHeldRigFailsAtOnceNamingPIDHostStartAndCommand() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        let first = try await RigLock.acquire(rigName: "lab-bench-1", command: "hil run --rig rigs/lab-bench-1.json", directory: directory)
        defer { first.release() }
        #expect(first.url.lastPathComponent == "lab-bench-1.lock")
        await #expect {
            _ = try await RigLock.acquire(rigName: "lab-bench-1", command: "second", directory: directory)
        } throws: { error in
            guard let error = error as? RigLockError, error.kind == .held else { return false }
            let text = error.description
            return text.hasPrefix("rig lab-bench-1 is held by PID \(getpid()) on \(RunContext.hostName()) since ")
                && text.contains("(hil run --rig rigs/lab-bench-1.json)") && text.contains("--wait") && error.holder?.pid == getpid()
        }
    }

    @Test func aSecondRunnerWaitsAndGetsTheRigWhenItIsReleased() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        try await withSteppedTime { time in
            let clock = time.clock
            let first = try await RigLock.acquire(rigName: "bench", command: "first", directory: directory)
            let notices = Notices()
            let start = time.now
            // On the clock's loop, so that each poll has looked and armed the next before an advance returns.
            let waiting = Task(executorPreference: clock.taskExecutor) {
                try await RigLock.acquire(rigName: "bench", command: "second", wait: .seconds(10), directory: directory,
                                          pollInterval: .milliseconds(50), clock: clock, notice: notices.append)
            }
            // It looked once, found the rig held, said so, and waits for its next look.
            #expect(await time.nextDeadline() == start + .milliseconds(50))
            #expect(notices.all.count == 1)
            #expect(notices.all.first?.contains("waiting up to 10.0 s") == true)
            await time.advance(to: start + .milliseconds(400))
            first.release()
            // Released at 400 ms: the next look, at 450 ms, takes it; one nanosecond before, it still waits.
            #expect(await time.nextDeadline() == start + .milliseconds(450))
            await time.advance(to: start + .milliseconds(450) - .nanoseconds(1))
            #expect(await time.nextDeadline() == start + .milliseconds(450))
            #expect(RigLock.currentHolder(rigName: "bench", directory: directory) == nil, "released, not yet taken")
            await time.advance(to: start + .milliseconds(450))
            let second = try await waiting.value
            defer { second.release() }
            #expect(notices.all.count == 1)
            #expect(second.tookOverFrom == nil, "a released lock is not a takeover")
            #expect(RigLock.currentHolder(rigName: "bench", directory: directory)?.command == "second")
        }
    }

    @Test func waitingHasADeadlineAndSaysHowLongItWaited() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        try await withSteppedTime { time in
            let clock = time.clock
            let first = try await RigLock.acquire(rigName: "bench", command: "first", directory: directory)
            defer { first.release() }
            let due = time.now + .milliseconds(300)
            let waiting = Task(executorPreference: clock.taskExecutor) {
                try await RigLock.acquire(rigName: "bench", command: "second", wait: .milliseconds(300), directory: directory,
                                          pollInterval: .milliseconds(50), clock: clock)
            }
            #expect(await time.nextDeadline() == due - .milliseconds(250), "the first poll")
            // One nanosecond before the end of the wait: a last look is armed at exactly the end.
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due)
            await time.advance(to: due)
            await #expect {
                _ = try await waiting.value
            } throws: { ($0 as? RigLockError)?.description.hasSuffix("; waited 0.30 s") == true }
        }
    }

    @Test func aDeadHoldersRecordIsTakenOver() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        // A holder that has ended: no process has its PID (Linux's PIDs stay below 2^22), and it left its record
        // in the (unlocked) file.
        let stale = RigLockHolder(pid: Int32.max, host: RunContext.hostName(), started: Date(timeIntervalSince1970: 1_800_000_000),
                                  command: "hil run --rig crashed", rig: "bench")
        #expect(stale.isAliveOnThisHost == false)
        try TestRecord.makeEncoder().encode(stale).write(to: RigLock.lockFile(rigName: "bench", directory: directory))
        let notices = Notices()
        let lock = try await RigLock.acquire(rigName: "bench", command: "me", directory: directory, notice: notices.append)
        defer { lock.release() }
        #expect(lock.tookOverFrom?.pid == stale.pid)
        #expect(lock.tookOverFrom?.command == stale.command)
        #expect(notices.all.first?.contains("(hil run --rig crashed)") == true)
    }

    @Test func releaseClearsTheRecordAndFreesTheRig() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        let lock = try await RigLock.acquire(rigName: "bench", command: "first", directory: directory)
        #expect(RigLock.currentHolder(rigName: "bench", directory: directory)?.pid == getpid())
        lock.release()
        lock.release()  // twice is harmless
        #expect(RigLock.currentHolder(rigName: "bench", directory: directory) == nil)
        let again = try await RigLock.acquire(rigName: "bench", command: "second", directory: directory)
        defer { again.release() }
        #expect(again.tookOverFrom == nil)
    }

    @Test func anUnusableLockDirectoryIsAnErrorNamingIt() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("not-a-dir")
        try Data().write(to: file)
        await #expect {
            _ = try await RigLock.acquire(rigName: "bench", command: "x", directory: file.appendingPathComponent("locks"))
        } throws: { error in
            guard let error = error as? RigLockError else { return false }
            return error.kind == .unusable && error.description.contains(file.path)
        }
    }

    @Test func lockDirectoryFromTheEnvironment() {
        #expect(RigLock.defaultDirectory(environment: ["HIL_LOCK_DIR": "/var/lock/hil"]).path == "/var/lock/hil")
        #expect(RigLock.defaultDirectory(environment: [:]).path == "/tmp/hil-locks")
        #expect(RigLock.lockFile(rigName: "lab bench/1", directory: URL(fileURLWithPath: "/l")).lastPathComponent == "lab_bench_1.lock")
    }
}
