/// The first `count` elements of `stream` (fewer when it ends first), or an error naming `what` when they
/// do not come within `timeout` on `clock` (a unit test's virtual or stepped clock; a peer test's
/// `ContinuousClock()`).
public func collect<Element: Sendable, C: Clock>(_ stream: AsyncStream<Element>, count: Int, within timeout: Duration,
                                                 clock: C, _ what: String = "elements") async throws -> [Element]
where C.Duration == Duration {
    try await withThrowingTaskGroup(of: [Element]?.self) { group in
        group.addTask {
            var result: [Element] = []
            for await element in stream {
                result.append(element)
                if result.count == count { break }
            }
            return result
        }
        group.addTask {
            try await Task.sleep(for: timeout, clock: clock)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else {
            throw StreamTimeout(description: "\(count) \(what) did not arrive within \(timeout)")
        }
        return result
    }
}

/// The first element of `stream`, or an error naming `what` when none comes within `timeout` on `clock`
/// (or the stream ends first).
public func first<Element: Sendable, C: Clock>(of stream: AsyncStream<Element>, within timeout: Duration, clock: C,
                                               _ what: String) async throws -> Element where C.Duration == Duration {
    guard let element = try await collect(stream, count: 1, within: timeout, clock: clock, what).first else {
        throw StreamTimeout(description: "the stream of \(what) ended with none")
    }
    return element
}

/// `collect` or `first(of:)` saw too little in time.
public struct StreamTimeout: Error, CustomStringConvertible {
    public let description: String
}
