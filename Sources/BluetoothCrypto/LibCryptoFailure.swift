// Turning a failed libcrypto call into a BluetoothCryptoError.

import CCrypto

extension BluetoothCryptoError {
    /// The error for a failed call to `operation`, with libcrypto's first queued error as its detail;
    /// empties this thread's error queue so that the next failure reports its own cause.
    static func libcryptoFailure(_ operation: String) -> BluetoothCryptoError {
        let code = ERR_get_error()
        var detail = "no error queued"
        if code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            detail = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        ERR_clear_error()
        return .libcrypto(operation: operation, detail: detail)
    }

    /// Throws the error for `operation` unless a libcrypto call returned 1 (its "success").
    static func check(_ result: Int32, _ operation: String) throws(BluetoothCryptoError) {
        guard result == 1 else { throw libcryptoFailure(operation) }
    }
}
