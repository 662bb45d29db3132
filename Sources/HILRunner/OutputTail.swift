import Synchronization

/// The last bytes a child wrote, for error messages.
final class OutputTail: Sendable {
    private let state = Mutex<[UInt8]>([])
    private let limit: Int

    init(limit: Int = 16384) { self.limit = limit }

    func append(_ bytes: [UInt8]) {
        state.withLock { buffer in
            buffer += bytes
            if buffer.count > limit { buffer.removeFirst(buffer.count - limit) }
        }
    }

    /// The last `count` non-empty lines, preferring lines with `error:`.
    func lines(_ count: Int) -> [String] {
        let text = state.withLock { String(decoding: $0, as: UTF8.self) }
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
        let errors = lines.filter { $0.contains("error:") }
        return Array((errors.isEmpty ? lines : errors).suffix(count))
    }
}
