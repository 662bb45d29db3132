// The length check every public entry point makes on its byte arguments.

/// Throws `.invalidLength` naming `what` unless `bytes` has exactly `expected` octets.
func requireLength(_ bytes: [UInt8], _ expected: Int, _ what: String) throws(BluetoothCryptoError) {
    guard bytes.count == expected else {
        throw .invalidLength(what: what, expected: expected, got: bytes.count)
    }
}

/// `requireLength` for each argument in turn: the first of the wrong length is the one named.
func requireLengths(_ arguments: (bytes: [UInt8], expected: Int, what: String)...) throws(BluetoothCryptoError) {
    for argument in arguments {
        try requireLength(argument.bytes, argument.expected, argument.what)
    }
}
