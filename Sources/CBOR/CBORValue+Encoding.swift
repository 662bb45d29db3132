import CCBOR

extension CBORValue {
    /// The value's encoding, heads written by libcbor in their shortest form (RFC 8949 §4.2.1's preferred
    /// serialization), definite lengths, maps in their order.
    package var encoded: [UInt8] {
        var output: [UInt8] = []
        encode(into: &output)
        return output
    }

    /// Appends the encoding to `output`.
    package func encode(into output: inout [UInt8]) {
        switch self {
        case .unsigned(let value): Self.head(&output) { cbor_encode_uint(value, $0, $1) }
        case .negative(let argument): Self.head(&output) { cbor_encode_negint(argument, $0, $1) }
        case .bytes(let bytes):
            Self.head(&output) { cbor_encode_bytestring_start(bytes.count, $0, $1) }
            output += bytes
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.head(&output) { cbor_encode_string_start(utf8.count, $0, $1) }
            output += utf8
        case .array(let items):
            Self.head(&output) { cbor_encode_array_start(items.count, $0, $1) }
            for item in items { item.encode(into: &output) }
        case .map(let entries):
            Self.head(&output) { cbor_encode_map_start(entries.count, $0, $1) }
            for entry in entries {
                entry.key.encode(into: &output)
                entry.value.encode(into: &output)
            }
        case .bool(let value): Self.head(&output) { cbor_encode_bool(value, $0, $1) }
        case .null: Self.head(&output) { cbor_encode_null($0, $1) }
        }
    }

    /// Appends the head one of libcbor's encoders writes (at most 9 octets: the initial byte and a 64-bit argument).
    private static func head(_ output: inout [UInt8], _ write: (UnsafeMutablePointer<UInt8>, Int) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9) { buffer in
            guard let base = buffer.baseAddress else { return }
            let written = write(base, buffer.count)
            output.append(contentsOf: UnsafeBufferPointer(start: base, count: written))
        }
    }
}
