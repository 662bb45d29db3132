@testable import Support
@testable import BenchOperations
import DeviceControl
import Foundation
@testable import HILResults
import Testing
import TestSupport

/// The rig lock against another process: util-linux flock(1) holds it, then dies without releasing it.
@Suite(.tags(.process)) struct RigLockProcessTests {
    @Test func anotherProcessHoldingTheLockKeepsTheRig() async throws {
        let directory = try TemporaryDirectory.make("hil-locks")
        defer { TemporaryDirectory.remove(directory) }
        let file = RigLock.lockFile(rigName: "bench", directory: directory)
        let held = try FIFO.make(in: directory, named: "held")
        // A second process takes the flock (flock(1) without forking: the process that holds the lock is the one
        // we kill; it execs sh, which says it holds the lock through the FIFO, then sleep, keeping the lock's
        // descriptor) and writes its holder record.
        let holder = try ChildProcess.spawn(["/usr/bin/flock", "--no-fork", "-x", file.path,
                                             "sh", "-c", "echo held > \"$0\"; exec sleep 30", held.path])
        var reaped = false
        defer { if !reaped { holder.signalGroup(SIGTERM) } }
        let holderEnd = Task { await holder.collect() }
        guard let said = await value(of: { await held.readToEnd() }, unlessEnded: holderEnd) else {
            let ended = await holderEnd.value
            Issue.record("flock(1) ended (\(ended.termination)) before it held the lock: \(String(decoding: ended.stderr, as: UTF8.self))")
            return
        }
        #expect(said == "held\n")
        let record = RigLockHolder(pid: holder.pid, host: RunContext.hostName(), started: Date(), command: "hil run --rig other", rig: "bench")
        try TestRecord.makeEncoder().encode(record).write(to: file)
        await #expect {
            _ = try await RigLock.acquire(rigName: "bench", command: "me", directory: directory)
        } throws: { ($0 as? RigLockError)?.description.contains("held by PID \(holder.pid)") == true }

        // The holder dies without releasing: the kernel frees the lock as it exits (it has, once it is reaped),
        // the next runner takes it over at once and says whose it was.
        kill(holder.pid, SIGKILL)
        _ = await holderEnd.value
        reaped = true
        let notices = RigLockTests.Notices()
        let lock = try await RigLock.acquire(rigName: "bench", command: "me", directory: directory, notice: notices.append)
        defer { lock.release() }
        #expect(lock.tookOverFrom?.pid == holder.pid)
        #expect(notices.all.contains { $0.contains("took over the lock of rig bench from PID \(holder.pid)") && $0.contains("ended without releasing it") })
        #expect(RigLock.currentHolder(rigName: "bench", directory: directory)?.pid == getpid())
    }
}
