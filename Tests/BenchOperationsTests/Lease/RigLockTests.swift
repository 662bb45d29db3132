@testable import BenchOperations
import DeviceControl
import Foundation
@testable import HILResults
import Synchronization
import Testing
import TestSupport

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
        let first = try await RigLock.acquire(rigName: "bench", command: "first", directory: directory)
        let notices = Notices()
        let clock = ContinuousClock()
        let start = clock.now
        Task {
            try await Task.sleep(for: .milliseconds(400))
            first.release()
        }
        let second = try await RigLock.acquire(rigName: "bench", command: "second", wait: .seconds(10), directory: directory,
                                               pollInterval: .milliseconds(50), notice: notices.append)
        defer { second.release() }
        let waited = clock.now - start
        #expect(waited >= .milliseconds(350) && waited < .seconds(5))
        #expect(notices.all.count == 1)
        #expect(notices.all.first?.contains("waiting up to 10.0 s") == true)
        #expect(second.tookOverFrom == nil, "a released lock is not a takeover")
        #expect(RigLock.currentHolder(rigName: "bench", directory: directory)?.command == "second")
    }

    @Test func waitingHasADeadlineAndSaysHowLongItWaited() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        let first = try await RigLock.acquire(rigName: "bench", command: "first", directory: directory)
        defer { first.release() }
        let clock = ContinuousClock()
        let start = clock.now
        await #expect {
            _ = try await RigLock.acquire(rigName: "bench", command: "second", wait: .milliseconds(300), directory: directory, pollInterval: .milliseconds(50))
        } throws: { ($0 as? RigLockError)?.description.hasSuffix("; waited 0.30 s") == true }
        #expect(clock.now - start < .seconds(3))
    }

    @Test func anotherProcessHoldingTheLockKeepsTheRig() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        let file = RigLock.lockFile(rigName: "bench", directory: directory)
        // A second process takes the flock (util-linux flock(1) without forking: the process that holds
        // the lock is the one we kill) and writes its holder record.
        let holder = try ChildProcess.spawn(["/usr/bin/flock", "--no-fork", "-x", file.path, "sleep", "30"])
        var reaped = false
        defer { if !reaped { holder.signalGroup(SIGTERM) } }
        try await waitForLockFile(file)
        let record = RigLockHolder(pid: holder.pid, host: RunContext.hostName(), started: Date(), command: "hil run --rig other", rig: "bench")
        try TestRecord.makeEncoder().encode(record).write(to: file)
        try await waitUntilHeld(file)
        await #expect {
            _ = try await RigLock.acquire(rigName: "bench", command: "me", directory: directory)
        } throws: { ($0 as? RigLockError)?.description.contains("held by PID \(holder.pid)") == true }

        // The holder dies without releasing: the kernel frees the lock, the next runner takes it over and says whose it was.
        kill(holder.pid, SIGKILL)
        _ = await holder.collect()
        reaped = true
        let notices = Notices()
        let lock = try await RigLock.acquire(rigName: "bench", command: "me", wait: .seconds(5), directory: directory, notice: notices.append)
        defer { lock.release() }
        #expect(lock.tookOverFrom?.pid == holder.pid)
        #expect(notices.all.contains { $0.contains("took over the lock of rig bench from PID \(holder.pid)") && $0.contains("ended without releasing it") })
        #expect(RigLock.currentHolder(rigName: "bench", directory: directory)?.pid == getpid())
    }

    @Test func aDeadHoldersRecordIsTakenOver() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        // A process that has exited: its PID is dead, and it left its record in the (unlocked) file.
        let exited = try ChildProcess.spawn(["/bin/true"])
        _ = await exited.collect()
        let stale = RigLockHolder(pid: exited.pid, host: RunContext.hostName(), started: Date(timeIntervalSinceNow: -3600),
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

    func waitForLockFile(_ url: URL) async throws {
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: url.path) { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// Until a non-blocking flock on the file fails (the other process has it), at most 2 s.
    func waitUntilHeld(_ url: URL) async throws {
        for _ in 0..<100 {
            let fd = open(url.path, O_RDONLY | O_CLOEXEC)
            defer { if fd >= 0 { close(fd) } }
            if fd >= 0, flock(fd, LOCK_EX | LOCK_NB) != 0 { return }
            if fd >= 0 { _ = flock(fd, LOCK_UN) }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("flock(1) did not take the lock within 2 s")
    }
}
