import BluetoothCrypto
import Testing

/// The security function e against FIPS-197 Appendix C.1 (the AES-128 example).
@Suite("AES-128, the security function e")
struct AES128Tests {
    @Test("FIPS-197 Appendix C.1: AES-128 of 00112233…eeff under 00010203…0f")
    func fips197() throws {
        #expect(try AES128.encrypt(key: hex("00010203 04050607 08090a0b 0c0d0e0f"),
                                   block: hex("00112233 44556677 8899aabb ccddeeff"))
                == hex("69c4e0d8 6a7b0430 d8cdb780 70b4c55a"))
    }

    @Test("A key or block of the wrong length throws invalidLength naming it")
    func wrongLengths() {
        #expect(throws: BluetoothCryptoError.invalidLength(what: "key", expected: 16, got: 15)) {
            try AES128.encrypt(key: [UInt8](repeating: 0, count: 15), block: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "block", expected: 16, got: 3)) {
            try AES128.encrypt(key: [UInt8](repeating: 0, count: 16), block: [1, 2, 3])
        }
    }
}
