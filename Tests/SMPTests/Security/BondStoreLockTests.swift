@testable import Support
import Foundation
@testable import EventLoops
@testable import SMP
import Synchronization
import TestSupport
import Testing

/// The wait for the store's lock, on a stepped clock: a writer waits while another holds the flock (here
/// the test, through a descriptor of its own, as another process would), writes at its next try once it
/// is free, and gives up at exactly its deadline, or when cancelled, with an error naming the lock and
/// the wait. Writers of one process queue behind each other without pauses of their own.
@Suite("AdapterBondFile: the lock")
struct BondStoreLockTests {
    /// The flock another process would hold on the lock file of `file`.
    final class ForeignHolder: Sendable {
        private let fd: Mutex<Int32>

        init(_ file: AdapterBondFile) throws {
            let fd = open(BondFileLock.path(for: file.path), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw SystemCallError.current }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let error = SystemCallError.current
                close(fd)
                throw error
            }
            self.fd = Mutex(fd)
        }

        func release() {
            fd.withLock { fd in
                if fd >= 0 { close(fd) }
                fd = -1
            }
        }

        deinit { release() }
    }

    /// A save under way in a task on the stepped clock's loop (the store's actor runs there too, as a
    /// default actor runs on its caller's task executor), so that `settle()` returns only once the save
    /// has gone as far as it can, and whether it has ended.
    final class PendingSave: Sendable {
        let task: Task<SecurityError?, Never>
        private let ended: Flag

        init(_ file: AdapterBondFile, _ bond: Bond, on time: VirtualTime) {
            let ended = Flag()
            self.ended = ended
            task = Task(executorPreference: time.clock.taskExecutor) {
                defer { ended.set() }
                do throws(SecurityError) {
                    try await file.save(bond)
                    return nil
                } catch {
                    return error
                }
            }
        }

        var hasEnded: Bool { ended.isSet }

        /// The store's error it ended with (nil: it saved).
        func failure() async -> BondStoreError? {
            guard let error = await task.value else { return nil }
            guard case .bondStore(let failure) = error else {
                Issue.record("not a bond store error: \(error)")
                return nil
            }
            return failure
        }
    }

    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    /// Runs `body` with a store directory and a stepped clock, and the file of the fixture's adapter on it.
    static func withStore(lockTimeout: Duration = .seconds(10),
                          _ body: (VirtualTime, BondStoreOptions, AdapterBondFile) async throws -> Void) async throws {
        try await BondStoreFixture.withDirectory { directory in
            try await withSteppedTime { time in
                let options = BondStoreFixture.options(clock: time.clock, lockTimeout: lockTimeout)
                let file = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: options)
                try await body(time, options, file)
            }
        }
    }

    @Test("A writer waits while another process holds the lock, and writes at its next try once it is free")
    func waitsForTheHolder() async throws {
        try await Self.withStore { time, _, file in
            let holder = try ForeignHolder(file)
            let bond = BondStoreFixture.bond(writer: 1, index: 1)
            let start = time.now
            let save = PendingSave(file, bond, on: time)
            let retry = await time.nextDeadline()
            #expect(retry == start.advanced(by: .milliseconds(1)), "the first pause is 1 ms")
            #expect(!save.hasEnded)
            #expect(try BondStoreFixture.bondsOnDisk(file.path).isEmpty)
            holder.release()
            await time.advance(to: retry)
            #expect(await save.failure() == nil)
            #expect(try BondStoreFixture.bondsOnDisk(file.path) == [bond])
        }
    }

    @Test("The wait ends at exactly its deadline with an error naming the lock and how long it waited")
    func deadlineIsExact() async throws {
        try await Self.withStore(lockTimeout: .seconds(10)) { time, _, file in
            let holder = try ForeignHolder(file)
            let start = time.now
            let save = PendingSave(file, BondStoreFixture.bond(writer: 2, index: 2), on: time)
            _ = await time.nextDeadline()
            let deadline = start.advanced(by: .seconds(10))
            await time.advance(to: deadline.advanced(by: .nanoseconds(-1)))
            #expect(await time.nextDeadline() == deadline, "the last try is at the deadline itself")
            #expect(!save.hasEnded)
            await time.advance(to: deadline)
            let failure = try #require(await save.failure())
            let lock = BondFileLock.path(for: file.path)
            #expect(failure.kind == .lockTimedOut)
            #expect(failure.path == lock)
            #expect(failure.description == "gave up waiting for the lock \(lock) after 10.00 s: another process holds it")
            #expect(try BondStoreFixture.bondsOnDisk(file.path).isEmpty)
            holder.release()
        }
    }

    @Test("Cancelling the wait ends it at once with an error naming the lock and how long it waited")
    func cancellation() async throws {
        try await Self.withStore { time, _, file in
            let holder = try ForeignHolder(file)
            let save = PendingSave(file, BondStoreFixture.bond(writer: 3, index: 3), on: time)
            _ = await time.nextDeadline()
            await time.advance(by: .seconds(3))
            _ = await time.nextDeadline()
            #expect(!save.hasEnded)
            save.task.cancel()
            let failure = try #require(await save.failure())
            let lock = BondFileLock.path(for: file.path)
            #expect(failure.kind == .cancelled)
            #expect(failure.description == "cancelled after waiting 3.00 s for the lock \(lock), which another process holds")
            holder.release()
        }
    }

    @Test("A writer of this process queued behind another is let in by it, with no pause of its own")
    func queuedWriterIsHandedTheLock() async throws {
        try await Self.withStore { time, options, first in
            let second = try await AdapterBondFile(directory: (first.path as NSString).deletingLastPathComponent,
                                                   adapter: BondStoreFixture.adapter, options: options)
            let holder = try ForeignHolder(first)
            let a = BondStoreFixture.bond(writer: 4, index: 1), b = BondStoreFixture.bond(writer: 4, index: 2)
            let firstSave = PendingSave(first, a, on: time)
            let retry = await time.nextDeadline()
            let secondSave = PendingSave(second, b, on: time)
            await time.settle()
            holder.release()
            // The first writer's next try takes the flock; the second follows it without the clock moving again.
            await time.advance(to: retry)
            #expect(await firstSave.failure() == nil)
            #expect(await secondSave.failure() == nil)
            #expect(time.now == retry)
            #expect(Set(try BondStoreFixture.bondsOnDisk(first.path).map(\.peerAddress)) == [a.peerAddress, b.peerAddress])
        }
    }

    @Test("A writer of this process queued behind another gives up at the same deadline")
    func queuedWriterDeadline() async throws {
        try await Self.withStore(lockTimeout: .seconds(5)) { time, options, first in
            let second = try await AdapterBondFile(directory: (first.path as NSString).deletingLastPathComponent,
                                                   adapter: BondStoreFixture.adapter, options: options)
            let holder = try ForeignHolder(first)
            let start = time.now
            let firstSave = PendingSave(first, BondStoreFixture.bond(writer: 5, index: 1), on: time)
            _ = await time.nextDeadline()
            let secondSave = PendingSave(second, BondStoreFixture.bond(writer: 5, index: 2), on: time)
            await time.settle()
            let deadline = start.advanced(by: .seconds(5))
            await time.advance(to: deadline.advanced(by: .nanoseconds(-1)))
            #expect(await time.nextDeadline() == deadline)
            #expect(!firstSave.hasEnded && !secondSave.hasEnded)
            await time.advance(to: deadline)
            let failures = [await firstSave.failure(), await secondSave.failure()]
            for failure in failures {
                #expect(failure?.kind == .lockTimedOut)
                #expect(failure?.description.hasPrefix("gave up waiting for the lock \(BondFileLock.path(for: first.path)) after 5.00 s") == true,
                        "\(failure?.description ?? "saved")")
            }
            #expect(time.now == deadline)
            holder.release()
        }
    }

    @Test("Cancelling a writer queued behind another in this process ends its wait")
    func queuedWriterCancellation() async throws {
        try await Self.withStore { time, options, first in
            let second = try await AdapterBondFile(directory: (first.path as NSString).deletingLastPathComponent,
                                                   adapter: BondStoreFixture.adapter, options: options)
            let holder = try ForeignHolder(first)
            let firstSave = PendingSave(first, BondStoreFixture.bond(writer: 6, index: 1), on: time)
            let retry = await time.nextDeadline()
            let secondSave = PendingSave(second, BondStoreFixture.bond(writer: 6, index: 2), on: time)
            await time.settle()
            #expect(!secondSave.hasEnded)
            secondSave.task.cancel()
            let failure = try #require(await secondSave.failure())
            #expect(failure.kind == .cancelled)
            #expect(failure.description.hasSuffix("which another writer in this process holds"), "\(failure)")
            // The first writer is unharmed: it writes once the flock is free.
            holder.release()
            await time.advance(to: retry)
            #expect(await firstSave.failure() == nil)
            #expect(try BondStoreFixture.bondsOnDisk(first.path).count == 1)
        }
    }
}
