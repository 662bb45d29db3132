import CCBOR

extension CBORValue {
    /// Decodes exactly one data item from `bytes` through libcbor's streaming decoder: libcbor reads each head,
    /// and the value is built here under `limits`, so that deep nesting, huge declared lengths or item floods are
    /// a `CBORError` before they cost memory or stack. Indefinite-length strings, arrays and maps are taken.
    package init(decoding bytes: [UInt8], limits: CBORLimits = CBORLimits()) throws(CBORError) {
        let builder = CBORBuilder(limits: limits)
        let outcome: Result<CBORValue, CBORError> = bytes.withUnsafeBufferPointer { buffer in
            var callbacks = CBORBuilder.callbacks()
            let context = Unmanaged.passUnretained(builder).toOpaque()
            var offset = 0
            while builder.result == nil {
                guard let base = buffer.baseAddress, offset < buffer.count else { return .failure(.truncated(offset: offset)) }
                builder.offset = offset
                let decoded = cbor_stream_decode(base + offset, buffer.count - offset, &callbacks, context)
                if let failure = builder.failure { return .failure(failure) }
                switch decoded.status {
                case CBOR_DECODER_FINISHED: offset += decoded.read
                case CBOR_DECODER_NEDATA: return .failure(.truncated(offset: offset))
                default: return .failure(.malformed(offset: offset))
                }
            }
            guard offset == buffer.count, let result = builder.result else {
                return .failure(.trailingBytes(count: buffer.count - offset, offset: offset))
            }
            return .success(result)
        }
        withExtendedLifetime(builder) {}
        self = try outcome.get()
    }
}
