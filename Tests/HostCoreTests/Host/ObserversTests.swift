import EventLoops
@testable import HostCore
import Testing
import TestSupport

/// The stream registry a host, a device and a link share: what each stream gets, how one ends, and which
/// id reaches the owner when a consumer stops listening.
@Suite struct ObserversTests {
    @Test func eachStreamGetsTheValuesFromItsStartUntilTheOwnerFinishes() async throws {
        try await withVirtualTime { clock in
            let loop = try EventLoop(label: "test-observers", clock: clock)
            defer { loop.shutdown() }
            var observers = Observers<Int>()
            let first = observers.stream(removingOn: loop) { _ in }
            observers.yield(1)
            let second = observers.stream(removingOn: loop) { _ in }
            observers.yield(2)
            observers.finish()
            observers.yield(3)
            #expect(await Self.collect(first) == [1, 2])
            #expect(await Self.collect(second) == [2])
        }
    }

    @Test func aStreamOfASourceAlreadyGoneHasEnded() async throws {
        try await withVirtualTime { clock in
            let loop = try EventLoop(label: "test-observers-closed", clock: clock)
            defer { loop.shutdown() }
            var observers = Observers<Int>()
            let ended = observers.stream(open: false, removingOn: loop) { _ in }
            observers.yield(1)
            #expect(await Self.collect(ended) == [])
        }
    }

    @Test func aConsumerThatStopsHandsItsStreamsIDToTheOwnerOnTheLoop() async throws {
        try await withVirtualTime { clock in
            let loop = try EventLoop(label: "test-observers-remove", clock: clock)
            defer { loop.shutdown() }
            var observers = Observers<Int>()
            let (removed, remove) = AsyncStream<UInt64>.makeStream()
            let kept = observers.stream(removingOn: loop) { _ in }
            let stopped = observers.stream(removingOn: loop) { id in remove.yield(id) }
            let consumer = Task(executorPreference: loop) { for await _ in stopped {} }
            consumer.cancel()
            let id = await firstElement(of: removed, within: .seconds(1), on: loop)
            #expect(id == 2, "the second stream's id, within 1 s of the loop's clock")
            observers.finish()
            #expect(await Self.collect(kept) == [])
        }
    }

    static func collect(_ stream: AsyncStream<Int>) async -> [Int] {
        var values: [Int] = []
        for await value in stream { values.append(value) }
        return values
    }
}
