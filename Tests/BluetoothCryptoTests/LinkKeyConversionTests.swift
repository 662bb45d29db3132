import BluetoothCrypto
import Testing

/// h6 and h7 against Core v5.4 Vol 3 Part H Appendix D.6 and D.8, and the cross-transport key
/// derivations built on them (LTK to link key and back, with and without CT2), as Bumble's
/// tests/smp_test.py quotes them (test_h6, test_h7, test_ltk_to_link_key, test_link_key_to_ltk);
/// D.6 also as BlueZ's unit/test-crypto.c test_h6 has it, least significant octet first.
@Suite("h6 and h7, link key conversion (D.6, D.8)")
struct LinkKeyConversionTests {
    static let tmp1: [UInt8] = hex("746D7031"), lebr: [UInt8] = hex("6c656272")
    static func salt(_ keyID: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 12) + keyID }

    @Test("D.6: h6(W, \"lebr\")")
    func h6() throws {
        #expect(try SecurityFunctions.h6(w: hex("ec0234a3 57c8ad05 341010a6 0a397d9b"), keyID: Self.lebr)
                == hex("2d9ae102 e76dc91c e8d3a9e2 80b16399"))
    }

    @Test("D.8: h7(SALT \"tmp1\", W)")
    func h7() throws {
        #expect(try SecurityFunctions.h7(salt: Self.salt(Self.tmp1), w: hex("ec0234a3 57c8ad05 341010a6 0a397d9b"))
                == hex("fb173597 c6a3c0ec d2998c2a 75a57011"))
    }

    /// One conversion of a key to the other transport: h6(h6(key, first), second) without CT2,
    /// h6(h7(SALT first, key), second) with it.
    struct Conversion: Sendable, CustomTestStringConvertible {
        let name: String
        let key: String, first: String, second: String
        let withoutCT2: String, withCT2: String
        var testDescription: String { name }
    }

    @Test("Cross-transport key derivation, without and with CT2", arguments: [
        Conversion(name: "LTK to link key (tmp1, lebr)", key: "368df9bc e3264b58 bd066c33 334fbf64",
                   first: "746D7031", second: "6c656272",
                   withoutCT2: "bc1ca4ef 633fc1bd 0d8230af ee388fb0", withCT2: "287ad379 dca40253 0a39f1f4 3047b835"),
        Conversion(name: "link key to LTK (tmp2, brle)", key: "05040302 01000908 07060504 03020100",
                   first: "746D7032", second: "62726c65",
                   withoutCT2: "a813fb72 f1a3dfa1 8a2c9a43 f10d0a30", withCT2: "e85e09eb 5eccb3e2 69418a13 3211bc79"),
    ])
    func crossTransport(_ conversion: Conversion) throws {
        let key = hex(conversion.key), first = hex(conversion.first), second = hex(conversion.second)
        let withoutCT2 = try SecurityFunctions.h6(w: SecurityFunctions.h6(w: key, keyID: first), keyID: second)
        #expect(withoutCT2 == hex(conversion.withoutCT2))
        let withCT2 = try SecurityFunctions.h6(w: SecurityFunctions.h7(salt: Self.salt(first), w: key), keyID: second)
        #expect(withCT2 == hex(conversion.withCT2))
    }

    @Test("Wrong lengths throw invalidLength naming the argument")
    func wrongLengths() {
        #expect(throws: BluetoothCryptoError.invalidLength(what: "keyID", expected: 4, got: 5)) {
            try SecurityFunctions.h6(w: [UInt8](repeating: 0, count: 16), keyID: [1, 2, 3, 4, 5])
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "w", expected: 16, got: 15)) {
            try SecurityFunctions.h6(w: [UInt8](repeating: 0, count: 15), keyID: Self.lebr)
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "salt", expected: 16, got: 4)) {
            try SecurityFunctions.h7(salt: Self.tmp1, w: [UInt8](repeating: 0, count: 16))
        }
    }
}
