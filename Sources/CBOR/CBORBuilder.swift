import CCBOR

/// Builds a `CBORValue` from the heads libcbor's streaming decoder reports, one `cbor_stream_decode` call at a
/// time, with an explicit stack (no recursion, whatever the nesting) and the limits checked at each head.
/// Used by one decoding call on one thread; libcbor reaches it through the callbacks' context pointer.
final class CBORBuilder {
    private enum Frame {
        /// An array; `remaining` items to come, nil for an indefinite one (ended by a break).
        case array([CBORValue], remaining: Int?)
        /// A map; `remaining` keys and values to come (nil: indefinite), `key` the one awaiting its value.
        case map([CBORMapEntry], key: CBORValue?, remaining: Int?)
        /// An indefinite-length string's chunks so far.
        case chunks([UInt8], text: Bool)

        var isContainer: Bool { if case .chunks = self { false } else { true } }
    }

    let limits: CBORLimits
    /// The offset of the head being decoded, for errors.
    var offset = 0
    private(set) var result: CBORValue?
    private(set) var failure: CBORError?
    private var stack: [Frame] = []
    private var items = 0

    init(limits: CBORLimits) { self.limits = limits }

    private var depth: Int { stack.count { $0.isContainer } }

    /// Counts a head; false (with the failure set) once there are too many, or after an earlier failure.
    private func head() -> Bool {
        guard failure == nil else { return false }
        items += 1
        if items > limits.items { failure = .tooManyItems(limit: limits.items, offset: offset) }
        return failure == nil
    }

    private func fail(_ error: CBORError) {
        if failure == nil { failure = error }
    }

    /// A complete value: into the enclosing array or map (closing those it completes), or the result.
    private func produce(_ finished: CBORValue) {
        var value = finished
        while true {
            guard let top = stack.popLast() else {
                result = value
                return
            }
            switch top {
            case .array(var items, let remaining):
                items.append(value)
                if let remaining, remaining == 1 {
                    value = .array(items)
                    continue
                }
                stack.append(.array(items, remaining: remaining.map { $0 - 1 }))
            case .map(var entries, let key, let remaining):
                var pending: CBORValue? = value
                if let key {
                    entries.append(CBORMapEntry(key, value))
                    pending = nil
                }
                if let remaining, remaining == 1 {
                    value = .map(entries)
                    continue
                }
                stack.append(.map(entries, key: pending, remaining: remaining.map { $0 - 1 }))
            case .chunks:
                // Only strings of its own kind may be chunks of an indefinite-length string (RFC 8949 §3.2.3).
                fail(.malformed(offset: offset))
            }
            return
        }
    }

    private func unsigned(_ value: UInt64) { if head() { produce(.unsigned(value)) } }
    private func negative(_ argument: UInt64) { if head() { produce(.negative(argument: argument)) } }

    private func string(_ data: UnsafePointer<UInt8>?, _ length: Int, text: Bool) {
        guard head() else { return }
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
        if case .chunks(let chunks, let chunkText)? = stack.last {
            guard chunkText == text else { return fail(.malformed(offset: offset)) }
            guard chunks.count + length <= limits.length else {
                return fail(.tooLong(length: UInt64(chunks.count + length), limit: limits.length, offset: offset))
            }
            stack[stack.count - 1] = .chunks(chunks + bytes, text: text)
            return
        }
        guard length <= limits.length else { return fail(.tooLong(length: UInt64(length), limit: limits.length, offset: offset)) }
        finishString(bytes, text: text)
    }

    private func finishString(_ bytes: [UInt8], text: Bool) {
        guard text else { return produce(.bytes(bytes)) }
        guard let string = String(validating: bytes, as: UTF8.self) else { return fail(.invalidText(offset: offset)) }
        produce(.text(string))
    }

    private func startChunks(text: Bool) {
        guard head() else { return }
        if case .chunks? = stack.last { return fail(.malformed(offset: offset)) }
        stack.append(.chunks([], text: text))
    }

    private func startArray(_ count: Int?) {
        guard head(), open(count) else { return }
        if count == 0 { produce(.array([])) } else { stack.append(.array([], remaining: count)) }
    }

    private func startMap(_ count: Int?) {
        guard head(), open(count) else { return }
        if count == 0 { produce(.map([])) } else { stack.append(.map([], key: nil, remaining: count.map { $0 * 2 })) }
    }

    /// Whether an array or map of `count` entries (nil: indefinite) may open here.
    private func open(_ count: Int?) -> Bool {
        if case .chunks? = stack.last {
            fail(.malformed(offset: offset))
        } else if depth + 1 > limits.depth {
            fail(.tooDeep(limit: limits.depth, offset: offset))
        } else if let count, count > limits.length {
            fail(.tooLong(length: UInt64(count), limit: limits.length, offset: offset))
        }
        return failure == nil
    }

    private func breakIndefinite() {
        guard head() else { return }
        switch stack.popLast() {
        case .array(let items, remaining: nil)?: produce(.array(items))
        case .map(let entries, key: nil, remaining: nil)?: produce(.map(entries))
        case .chunks(let bytes, let text)?: finishString(bytes, text: text)
        default: fail(.malformed(offset: offset))
        }
    }

    private func unsupported(_ kind: String) { if head() { fail(.unsupported(kind, offset: offset)) } }

    /// libcbor's callbacks, each handing its head to the builder in the context pointer.
    static func callbacks() -> cbor_callbacks {
        var callbacks = cbor_empty_callbacks
        callbacks.uint8 = { builder(in: $0)?.unsigned(UInt64($1)) }
        callbacks.uint16 = { builder(in: $0)?.unsigned(UInt64($1)) }
        callbacks.uint32 = { builder(in: $0)?.unsigned(UInt64($1)) }
        callbacks.uint64 = { builder(in: $0)?.unsigned($1) }
        callbacks.negint8 = { builder(in: $0)?.negative(UInt64($1)) }
        callbacks.negint16 = { builder(in: $0)?.negative(UInt64($1)) }
        callbacks.negint32 = { builder(in: $0)?.negative(UInt64($1)) }
        callbacks.negint64 = { builder(in: $0)?.negative($1) }
        callbacks.byte_string = { builder(in: $0)?.string($1, $2, text: false) }
        callbacks.byte_string_start = { builder(in: $0)?.startChunks(text: false) }
        callbacks.string = { builder(in: $0)?.string($1, $2, text: true) }
        callbacks.string_start = { builder(in: $0)?.startChunks(text: true) }
        callbacks.array_start = { builder(in: $0)?.startArray($1) }
        callbacks.indef_array_start = { builder(in: $0)?.startArray(nil) }
        callbacks.map_start = { builder(in: $0)?.startMap($1) }
        callbacks.indef_map_start = { builder(in: $0)?.startMap(nil) }
        callbacks.indef_break = { builder(in: $0)?.breakIndefinite() }
        callbacks.boolean = { if let builder = builder(in: $0), builder.head() { builder.produce(.bool($1)) } }
        callbacks.null = { if let builder = builder(in: $0), builder.head() { builder.produce(.null) } }
        callbacks.undefined = { builder(in: $0)?.unsupported("undefined") }
        callbacks.tag = { builder(in: $0)?.unsupported("tag \($1)") }
        callbacks.float2 = { builder(in: $0)?.unsupported("half-precision float \($1)") }
        callbacks.float4 = { builder(in: $0)?.unsupported("single-precision float \($1)") }
        callbacks.float8 = { builder(in: $0)?.unsupported("double-precision float \($1)") }
        return callbacks
    }
}

/// The builder libcbor's callbacks were given as their context (a free function: a C callback captures nothing).
private func builder(in context: UnsafeMutableRawPointer?) -> CBORBuilder? {
    context.map { Unmanaged<CBORBuilder>.fromOpaque($0).takeUnretainedValue() }
}
