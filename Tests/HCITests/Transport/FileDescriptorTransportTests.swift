import Foundation
import Synchronization
import Testing
@testable import HCI
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Writes never block the loop: what the kernel does not take is queued and flushed when the socket is
/// writable; a peer that reads nothing ends the transport after its write deadline; a peer that closed
/// is a named error, not SIGPIPE.
@Suite(.timeLimit(.minutes(1))) struct FileDescriptorTransportTests {
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
        let (ours, theirs) = try Self.socketPair()
        defer { close(theirs) }
        let loop = try EventLoop(label: "test-fd-queue")
        defer { loop.shutdown() }
        // A long write deadline: this test is about order and a free loop, not about a stalled reader
        // (a loaded machine may start reading seconds later).
        let transport = FileDescriptorTransport(moniker: "socketpair", fd: ours, writeDeadline: .seconds(30))
        try transport.start(on: loop) { _ in }
        let count = 200   // about 200 kB, far beyond both socket buffers
        let clock = ContinuousClock()
        let sendTime = try await onLoop(loop) { () throws(HCITransportError) -> Duration in
            let start = clock.now
            for index in 0..<count { try transport.send(Self.packet(index)) }
            return clock.now - start
        }
        // Nothing read yet: a blocking send would have waited for the 2 s deadline and then failed.
        #expect(sendTime < .milliseconds(500), "queuing \(count) packets took \(sendTime)")
        // Whatever the timers need still runs while the queue waits.
        let probe = LoopProbe()
        await probe.settle(loop)
        // The other end reads everything: every packet, whole, in order.
        var framer = H4Framer(maximumDataLength: 4096)
        var received: [HCIPacket] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = clock.now + .seconds(10)
        while received.count < count, clock.now < deadline {
            var entry = pollfd(fd: theirs, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 100)
            let got = buffer.withUnsafeMutableBytes { read(theirs, $0.baseAddress, $0.count) }
            if got > 0 { received += try framer.feed(buffer[0..<got]) }
        }
        #expect(received.count == count)
        #expect(received == (0..<count).map { Self.packet($0) })
        transport.close()
    }

    @Test func aPeerThatReadsNothingEndsTheTransportAtItsWriteDeadline() async throws {
        let (ours, theirs) = try Self.socketPair()
        defer { close(theirs) }
        let loop = try EventLoop(label: "test-fd-stall")
        defer { loop.shutdown() }
        let transport = FileDescriptorTransport(moniker: "socketpair", fd: ours, writeDeadline: .milliseconds(200))
        let ended = Latest<HCITransportError>()
        try transport.start(on: loop) { event in
            if case .closed(let error) = event { ended.set(error) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        try await onLoop(loop) { () throws(HCITransportError) in
            for index in 0..<50 { try transport.send(Self.packet(index)) }
        }
        let ended5s = await eventually(within: .seconds(5)) { ended.value != nil }
        let elapsed = clock.now - start
        let stalled = try #require(ended.value, "the transport did not end although nothing was read for 5 s (\(ended5s))")
        #expect(stalled.kind == .timeout)
        #expect(stalled.message.contains("writing stalled") && stalled.message.contains("packets queued"), "\(stalled.message)")
        #expect(elapsed >= .milliseconds(200), "ended after \(elapsed), before its 200 ms write deadline")
    }

    @Test func twoTransportsWithFullBuffersBothWayDoNotDeadlock() async throws {
        let (left, right) = try Self.socketPair()
        let loops = (try EventLoop(label: "test-fd-left"), try EventLoop(label: "test-fd-right"))
        defer { loops.0.shutdown(); loops.1.shutdown() }
        let count = 300
        let receivedLeft = Counter(), receivedRight = Counter()
        let a = FileDescriptorTransport(moniker: "left", fd: left)
        let b = FileDescriptorTransport(moniker: "right", fd: right)
        try a.start(on: loops.0) { if case .packet = $0 { receivedLeft.add() } }
        try b.start(on: loops.1) { if case .packet = $0 { receivedRight.add() } }
        // Both write far more than both buffers hold, at once, from their own loops.
        async let first: Void = onLoop(loops.0) { () throws(HCITransportError) in for index in 0..<count { try a.send(Self.packet(index)) } }
        async let second: Void = onLoop(loops.1) { () throws(HCITransportError) in for index in 0..<count { try b.send(Self.packet(index)) } }
        try await first
        try await second
        _ = await eventually(within: .seconds(10)) { receivedLeft.value == count && receivedRight.value == count }
        #expect(receivedLeft.value == count)
        #expect(receivedRight.value == count)
        a.close()
        b.close()
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

/// A count incremented from any thread.
final class Counter: Sendable {
    private let state = Mutex(0)
    var value: Int { state.withLock { $0 } }
    func add() { state.withLock { $0 += 1 } }
}
