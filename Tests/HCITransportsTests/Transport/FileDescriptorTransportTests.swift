import Foundation
import Synchronization
import Testing
@testable import HCIPackets
@testable import EventLoops
@testable import HCITransports
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Writes never block the loop: what the kernel does not take is queued and flushed when the socket is
/// writable; a peer that reads nothing ends the transport after its write deadline; a peer that closed
/// is a named error, not SIGPIPE.
///
/// The transports run on loops of a stepped clock, which moves only when a test advances it: the write
/// deadline fires at exactly its instant, and no other deadline fires early on a loaded machine.
@Suite struct FileDescriptorTransportTests {
    /// A Unix stream socket pair with small buffers, so a few packets fill it.
    static func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
        #else
        let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &fds)
        #endif
        try #require(made == 0)
        var size: Int32 = 4096
        for fd in fds {
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        return (fds[0], fds[1])
    }

    /// An ACL packet of `length` payload bytes, its bytes numbered by `index` so order can be checked.
    static func packet(_ index: Int, length: Int = 1000) -> HCIPacket {
        .aclData(ACLDataPacket(handle: 0x0040, boundary: .firstNonFlushable,
                               data: [UInt8(truncatingIfNeeded: index)] + [UInt8](repeating: 0xA5, count: length - 1)))
    }

    @Test func sendsTheKernelCannotTakeAreQueuedInOrderAndTheLoopStaysFree() async throws {
        try await withSteppedTime { time in
            let (ours, theirs) = try Self.socketPair()
            defer { close(theirs) }
            let loop = try EventLoop(label: "test-fd-queue", clock: time.clock)
            defer { loop.shutdown() }
            let transport = FileDescriptorTransport(moniker: "socketpair", fd: ours, writeDeadline: .seconds(30), clock: time.clock)
            try transport.start(on: loop) { _ in }
            let count = 200   // about 200 kB, far beyond both socket buffers
            // Nothing reads until every send has returned: a send that blocked until the other end read would
            // never return (and the write deadline cannot end it: the clock never reaches it).
            try await onLoop(loop) { () throws(HCITransportError) in
                for index in 0..<count { try transport.send(Self.packet(index)) }
            }
            // The loop is free while the queue waits: work queued behind the sends runs.
            let probe = LoopProbe()
            await probe.settle(loop)
            // The other end reads everything: every packet, whole, in order.
            let received = try await Self.read(count, from: theirs)
            #expect(received.count == count)
            #expect(received == (0..<count).map { Self.packet($0) })
            transport.close()
        }
    }

    @Test func aPeerThatReadsNothingEndsTheTransportAtItsWriteDeadline() async throws {
        try await withSteppedTime { time in
            let (ours, theirs) = try Self.socketPair()
            defer { close(theirs) }
            let loop = try EventLoop(label: "test-fd-stall", clock: time.clock)
            defer { loop.shutdown() }
            let transport = FileDescriptorTransport(moniker: "socketpair", fd: ours, writeDeadline: .milliseconds(200), clock: time.clock)
            let ended = Latest<HCITransportError>()
            try transport.start(on: loop) { event in
                if case .closed(let error) = event { ended.set(error) }
            }
            let start = time.now
            try await onLoop(loop) { () throws(HCITransportError) in
                for index in 0..<50 { try transport.send(Self.packet(index)) }
            }
            // The first packet the kernel did not take started the write deadline, 200 ms from then.
            #expect(await time.nextDeadline() == start + .milliseconds(200))
            await time.advance(to: start + .milliseconds(200) - .nanoseconds(1))
            #expect(ended.value == nil, "ended before its 200 ms write deadline: \(String(describing: ended.value))")
            await time.advance(by: .nanoseconds(1))
            let stalled = try #require(ended.value, "the transport did not end at its write deadline although nothing was read")
            #expect(stalled.kind == .timeout)
            #expect(stalled.message.contains("writing stalled") && stalled.message.contains("packets queued"), "\(stalled.message)")
        }
    }

    @Test func twoTransportsWithFullBuffersBothWayDoNotDeadlock() async throws {
        try await withSteppedTime { time in
            let (left, right) = try Self.socketPair()
            let loops = (try EventLoop(label: "test-fd-left", clock: time.clock), try EventLoop(label: "test-fd-right", clock: time.clock))
            defer { loops.0.shutdown(); loops.1.shutdown() }
            let count = 300
            let receivedLeft = Counter(), receivedRight = Counter()
            let a = FileDescriptorTransport(moniker: "left", fd: left, clock: time.clock)
            let b = FileDescriptorTransport(moniker: "right", fd: right, clock: time.clock)
            try a.start(on: loops.0) { if case .packet = $0 { receivedLeft.add() } }
            try b.start(on: loops.1) { if case .packet = $0 { receivedRight.add() } }
            // Both write far more than both buffers hold, at once, from their own loops.
            async let first: Void = onLoop(loops.0) { () throws(HCITransportError) in for index in 0..<count { try a.send(Self.packet(index)) } }
            async let second: Void = onLoop(loops.1) { () throws(HCITransportError) in for index in 0..<count { try b.send(Self.packet(index)) } }
            try await first
            try await second
            // Each side reads everything the other wrote (a deadlock would leave these waiting for ever).
            await receivedLeft.reach(count)
            await receivedRight.reach(count)
            #expect(receivedLeft.value == count)
            #expect(receivedRight.value == count)
            a.close()
            b.close()
        }
    }

    @Test func aPeerThatClosedIsANamedErrorNotASignal() async throws {
        let (ours, theirs) = try Self.socketPair()
        close(theirs)
        // Not started: nothing reads, so the write is the first to meet the close.
        let transport = FileDescriptorTransport(moniker: "socketpair", fd: ours)
        // A SIGPIPE would end the test process here.
        #expect { try transport.send(Self.packet(0)) } throws: { error in
            guard let error = error as? HCITransportError else { return false }
            return error.kind == .closedByPeer && error.message.contains("EPIPE")
        }
        transport.close()
    }
}

extension FileDescriptorTransportTests {
    /// Reads H4 packets from the blocking descriptor `fd` on a thread of its own until `count` have come or the
    /// other end closed; returns them.
    static func read(_ count: Int, from fd: Int32) async throws -> [HCIPacket] {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[HCIPacket], any Error>, Never>) in
            Thread {
                var framer = H4Framer(maximumDataLength: 4096)
                var received: [HCIPacket] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                do {
                    while received.count < count {
                        let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                        if got < 0 && errno == EINTR { continue }
                        if got <= 0 { break }
                        received += try framer.feed(buffer[0..<got])
                    }
                    continuation.resume(returning: .success(received))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }.start()
        }
        return try result.get()
    }
}

/// Runs `body` on `loop`'s thread (where transports are driven) and returns what it returned.
func onLoop<T: Sendable, E: Error>(_ loop: EventLoop, _ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
        loop.execute {
            do throws(E) { continuation.resume(returning: .success(try body())) } catch { continuation.resume(returning: .failure(error)) }
        }
    }
    return try result.get()
}

/// The last value set from any thread.
final class Latest<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
    var value: Value? { state.withLock { $0 } }
    func set(_ value: Value) { state.withLock { $0 = value } }
}

/// A count incremented from any thread, which a test can await.
final class Counter: Sendable {
    private let state = Mutex<(value: Int, waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)])>((0, []))
    var value: Int { state.withLock { $0.value } }

    func add() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.value += 1
            let value = state.value
            let ready = state.waiters.filter { $0.target <= value }.map(\.continuation)
            state.waiters.removeAll { $0.target <= value }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once the count is at least `target`.
    func reach(_ target: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                if state.value >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
