/// The first element of `stream`, or an error naming `what` when none comes within `timeout` (or the
/// stream ends first).
public func first<Element: Sendable>(of stream: AsyncStream<Element>, within timeout: Duration, _ what: String) async throws -> Element {
    try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let element = first else {
            throw FirstElementTimeout(description: "no \(what) within \(timeout)")
        }
        return element
    }
}

/// `first(of:within:_:)` saw nothing in time.
public struct FirstElementTimeout: Error, CustomStringConvertible {
    public let description: String
}
