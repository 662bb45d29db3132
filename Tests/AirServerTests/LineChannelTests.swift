@testable import Support
@testable import AirServer
import Foundation
import EventLoops
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A control client's `LineChannel` on a stepped clock that only the test moves: what it answers, when it
/// ends, and that no client — flooding, never reading, many of them — costs another its answer. The
/// clients are the test's ends of socket pairs; their reads run off the pool.
@Suite struct LineChannelTests {
    /// A kernel send buffer small enough that a client which never reads backs its answers up in the
    /// channel's queue after a few of them.
    static let limits = ControlLimits(socketSendBuffer: 4096)

    @Test func answersEachLineInOrderAndEndsAfterTheLastAnswerWhenInputEnds() async throws {
        try await withSteppedTime { time in
            let client = try ChannelUnderTest("client", limits: Self.limits, clock: time.clock)
            defer { client.close() }
            #expect(client.send("status\nbogus\r\n\npower x on\n"))
            shutdown(client.client, Int32(SHUT_WR))
            let lines = try await offPool { BlockingSocket.readLines(client.client, count: 5) }
            #expect(lines == ["ok status", "ok bogus", "ok ", "ok power x on"], "one answer per line, in order; then the end")
            #expect(await client.ended() == .inputEnded)
        }
    }

    @Test func aLineLongerThanTheLimitIsAnsweredAnErrorAndEndsTheChannel() async throws {
        try await withSteppedTime { time in
            var limits = Self.limits
            limits.maximumLineLength = 16
            let client = try ChannelUnderTest("client", limits: limits, clock: time.clock)
            defer { client.close() }
            #expect(client.send("status\n" + String(repeating: "x", count: 40)))
            let lines = try await offPool { BlockingSocket.readLines(client.client, count: 3) }
            #expect(lines == ["ok status", "error: line longer than 16 bytes; closing"])
            #expect(await client.ended() == .overlongLine(limit: 16))
            #expect(client.answers.value == 1, "the long line never reached the server")
        }
    }

    @Test func aClientMoreRequestsAheadOfItsAnswersThanTheLimitIsDroppedAsFlooding() async throws {
        try await withSteppedTime { time in
            let client = try ChannelUnderTest("flooder", limits: Self.limits, clock: time.clock)
            defer { client.close() }
            // 64 KiB of empty lines in one write: far more than 64 requests before any is answered.
            client.send(String(repeating: "\n", count: 65_536))
            #expect(await client.ended() == .flooded(limit: 64))
            #expect(client.answers.value <= 64, "at most the limit reached the server")
            #expect(try await offPool { BlockingSocket.readsEndOfStream(client.client) }, "its socket is closed")
        }
    }

    @Test func aClientThatLeavesMoreAnswerBytesUnreadThanTheLimitIsDroppedAsNotReading() async throws {
        try await withSteppedTime { time in
            var limits = Self.limits
            limits.maximumQueuedAnswerBytes = 16
            let client = try ChannelUnderTest("never-reader", limits: limits, clock: time.clock)
            defer { client.close() }
            client.send(String(repeating: "n\n", count: 60))
            let end = await client.ended()
            guard case .notReading(let queued, 16) = end else {
                Issue.record("expected not reading past 16 bytes, got \(end)")
                return
            }
            #expect(queued > 16)
        }
    }

    /// A client that reads none of its answers is dropped exactly `writeStallTimeout` after its answers
    /// began to wait, on the channel's clock: not a nanosecond before.
    @Test func aClientThatTakesNoneOfItsAnswersIsDroppedExactlyAtTheStallTimeout() async throws {
        try await withSteppedTime { time in
            let start = time.now
            let client = try ChannelUnderTest("never-reader", limits: Self.limits, clock: time.clock)
            defer { client.close() }
            try await Self.backUp(client, time)
            let deadline = await time.nextDeadline()
            #expect(deadline == start + Self.limits.writeStallTimeout)
            await time.advance(to: deadline - .nanoseconds(1))
            #expect(client.endedYet == nil)
            await time.advance(by: .nanoseconds(1))
            #expect(client.endedYet == .stalled(Self.limits.writeStallTimeout))
        }
    }

    /// Six clients that never read and two that flood, then one that asks and reads: it gets its answer
    /// while the clock has not moved at all — no other client's deadline stands between it and its answer —
    /// and the never-readers are still connected until their own deadline, when all of them go.
    @Test func aClientIsAnsweredAtOnceBesideClientsThatFloodOrNeverRead() async throws {
        try await withSteppedTime { time in
            let start = time.now
            let neverReaders = try (1...6).map { try ChannelUnderTest("never-reader \($0)", limits: Self.limits, clock: time.clock) }
            let flooders = try (1...2).map { try ChannelUnderTest("flooder \($0)", limits: Self.limits, clock: time.clock) }
            defer { for client in neverReaders + flooders { client.close() } }
            for client in neverReaders { try await Self.backUp(client, time) }
            for client in flooders { client.send(String(repeating: "\n", count: 65_536)) }
            for client in flooders { #expect(await client.ended() == .flooded(limit: 64)) }

            let good = try ChannelUnderTest("good", limits: Self.limits, clock: time.clock)
            defer { good.close() }
            #expect(good.send("status\n"))
            #expect(try await offPool { BlockingSocket.readLines(good.client, count: 1) } == ["ok status"])
            #expect(time.now == start, "answered with no time allowed to pass")
            #expect(neverReaders.allSatisfy { $0.endedYet == nil }, "answered while every never-reader still held its answers")

            let deadline = await time.nextDeadline()
            #expect(deadline == start + Self.limits.writeStallTimeout)
            await time.advance(to: deadline - .nanoseconds(1))
            #expect(neverReaders.allSatisfy { $0.endedYet == nil })
            await time.advance(by: .nanoseconds(1))
            #expect(neverReaders.allSatisfy { $0.endedYet == .stalled(Self.limits.writeStallTimeout) })
            #expect(good.endedYet == nil, "the good client is still served")
            #expect(good.send("help\n"))
            #expect(try await offPool { BlockingSocket.readLines(good.client, count: 1) } == ["ok help"])
        }
    }

    /// Sends 60 requests (fewer than the pending limit) and reads nothing, and returns once all are answered
    /// and the channel is idle: the kernel took a few answers, the rest wait in the channel's queue.
    static func backUp(_ client: ChannelUnderTest, _ time: VirtualTime) async throws {
        client.send(String(repeating: "n\n", count: 60))
        await client.answers.reach(60)
        await time.settle()
        try #require(client.channel.queuedAnswerBytes > 0, "the kernel took every answer: nothing backed up")
    }
}
