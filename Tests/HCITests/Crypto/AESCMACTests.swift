import Testing
@testable import HCI

/// FIPS-197 Appendix C.1 and the four RFC 4493 §4 examples. The CMAC values were
/// also checked with python3 and the `cryptography` package:
/// `CMAC(algorithms.AES(bytes.fromhex("2b7e…4f3c"))).update(M[:n]).finalize().hex()`.
@Suite("AES-128 and AES-CMAC")
struct AESCMACTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text where character != " " {
            guard let nibble = character.hexDigitValue.map(UInt8.init) else { continue }
            if let first = high { bytes.append(first << 4 | nibble); high = nil } else { high = nibble }
        }
        return bytes
    }

    static let rfcKey = hex("2b7e1516 28aed2a6 abf71588 09cf4f3c")
    static let rfcMessage = hex("""
        6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 \
        30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710
        """)

    @Test("FIPS-197 Appendix C.1: AES-128 of 00112233…eeff under 00010203…0f")
    func fips197() throws {
        let cipher = try #require(AES128(key: Array(UInt8(0)...UInt8(15))))
        #expect(cipher.encrypt(block: Self.hex("00112233445566778899aabbccddeeff"))
                == Self.hex("69c4e0d86a7b0430d8cdb78070b4c55a"))
    }

    @Test("RFC 4493 §4 examples 1–4 (0, 16, 40 and 64 octets)", arguments: [
        (0, "bb1d6929 e9593728 7fa37d12 9b756746"),
        (16, "070a16b4 6b4d4144 f79bdd9d d04a287c"),
        (40, "dfa66747 de9ae630 30ca3261 1497c827"),
        (64, "51f0bebf 7e3b9d92 fc497417 79363cfe"),
    ])
    func rfc4493(length: Int, mac: String) throws {
        let cmac = try #require(AESCMAC(key: Self.rfcKey))
        #expect(cmac.authenticate(Self.rfcMessage.prefix(length)) == Self.hex(mac))
        #expect(AESCMAC.mac(key: Self.rfcKey, message: Self.rfcMessage.prefix(length)) == Self.hex(mac))
    }

    @Test("Keys and blocks of the wrong length are refused, not trapped on")
    func wrongLengths() {
        #expect(AES128(key: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(AES128(key: [UInt8](repeating: 0, count: 17)) == nil)
        #expect(AESCMAC(key: []) == nil)
        #expect(AES128(key: [UInt8](repeating: 0, count: 16))?.encrypt(block: [1, 2, 3]) == nil)
    }
}
