import BluetoothCrypto
import Testing

/// AES-CMAC against RFC 4493 §4, the vectors Core v5.4 Vol 3 Part H Appendix D.1 repeats
/// (as Bumble's tests/smp_test.py test_aes_cmac quotes them).
@Suite("AES-CMAC (RFC 4493, Vol 3 Part H D.1)")
struct AESCMACTests {
    static let key = hex("2b7e1516 28aed2a6 abf71588 09cf4f3c")
    static let message = hex("""
        6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 \
        30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710
        """)

    @Test("RFC 4493 §4 examples 1–4 (0, 16, 40 and 64 octets)", arguments: [
        (0, "bb1d6929 e9593728 7fa37d12 9b756746"),
        (16, "070a16b4 6b4d4144 f79bdd9d d04a287c"),
        (40, "dfa66747 de9ae630 30ca3261 1497c827"),
        (64, "51f0bebf 7e3b9d92 fc497417 79363cfe"),
    ])
    func rfc4493(length: Int, mac: String) throws {
        let cmac = try #require(AESCMAC(key: Self.key))
        #expect(cmac.authenticate(Array(Self.message.prefix(length))) == hex(mac))
    }

    @Test("A key of other than 16 octets makes no AESCMAC")
    func wrongKeyLength() {
        #expect(AESCMAC(key: []) == nil)
        #expect(AESCMAC(key: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(AESCMAC(key: [UInt8](repeating: 0, count: 17)) == nil)
    }
}
