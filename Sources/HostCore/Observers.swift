/// The streams a host, a device or a link hands out for one kind of event (`HCIHost.events()`,
/// `LEDevice.attributeWrites()`, `LEConnection.linkEvents()`, …): each stream gets every value from when it
/// was made until its consumer stops listening or the owner finishes them all.
package struct Observers<Value: Sendable> {
    private var continuations: [UInt64: AsyncStream<Value>.Continuation] = [:]
    private var nextID: UInt64 = 1

    package init() {}

    /// A stream of every value from now on; `open: false` gives one that has already ended (the link is
    /// gone). When its consumer stops listening, `remove` runs with the stream's id on `executor` (the owner's
    /// loop), where the owner passes it to `remove(_:)`.
    package mutating func stream(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded, open: Bool = true,
                         removingOn executor: any TaskExecutor,
                         _ remove: @escaping @Sendable (UInt64) async -> Void) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: bufferingPolicy)
        guard open else {
            continuation.finish()
            return stream
        }
        let id = nextID
        nextID += 1
        continuations[id] = continuation
        continuation.onTermination = { _ in Task(executorPreference: executor) { await remove(id) } }
        return stream
    }

    /// Forgets the stream `id` (its consumer stopped listening).
    package mutating func remove(_ id: UInt64) { continuations[id] = nil }

    /// Gives `value` to every stream.
    package func yield(_ value: Value) {
        for continuation in continuations.values { continuation.yield(value) }
    }

    /// Ends every stream (their source ended).
    package mutating func finish() {
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
    }
}
