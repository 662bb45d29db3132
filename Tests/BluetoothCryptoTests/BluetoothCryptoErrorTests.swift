import BluetoothCrypto
import Testing

@Suite("BluetoothCryptoError")
struct BluetoothCryptoErrorTests {
    @Test("Every description is one line naming what went wrong", arguments: [
        BluetoothCryptoError.libcrypto(operation: "EVP_MAC_init", detail: "error:0308010C:digital envelope routines::unsupported"),
        .invalidLength(what: "n1", expected: 16, got: 15),
        .invalidArgument(what: "iat", reason: "an address type is 0 or 1, not 2"),
        .invalidPublicKey,
        .invalidPrivateKey,
    ])
    func oneLine(_ error: BluetoothCryptoError) {
        #expect(!error.description.isEmpty)
        #expect(!error.description.contains("\n"))
    }

    @Test("invalidLength names the argument and both lengths")
    func invalidLength() {
        #expect(BluetoothCryptoError.invalidLength(what: "n1", expected: 16, got: 15).description
                == "n1 must be 16 octets, not 15")
    }
}
