import BluetoothCrypto
import Testing

/// f4, f5, f6 and g2 against Core v5.4 Vol 3 Part H Appendix D.2 to D.5, as Bumble's
/// tests/smp_test.py (test_f4, test_f5, test_f6, test_g2) quotes them.
@Suite("f4, f5, f6 and g2, LE Secure Connections (D.2–D.5)")
struct SecureConnectionsTests {
    static let u = hex("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
    static let v = hex("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
    static let n1 = hex("d5cb8454 d177733e ffffb2ec 712baeab")
    static let n2 = hex("a6e8e7cc 25a75f6e 216583f7 ff3dc4cf")
    static let a1 = hex("00561237 37bfce")
    static let a2 = hex("00a71370 2dcfc1")
    static let macKey = hex("2965f176 a1084a02 fd3f6a20 ce636e20")

    @Test("D.2: f4(U, V, X, 0)")
    func f4() throws {
        #expect(try SecurityFunctions.f4(u: Self.u, v: Self.v, x: Self.n1, z: 0)
                == hex("f2c916f1 07a9bd1c f1eda1be a974872d"))
    }

    @Test("D.3: f5(W, N1, N2, A1, A2) gives the MacKey and the LTK")
    func f5() throws {
        let keys = try SecurityFunctions.f5(
            w: hex("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698"),
            n1: Self.n1, n2: Self.n2, a1: Self.a1, a2: Self.a2)
        #expect(keys.macKey == Self.macKey)
        #expect(keys.ltk == hex("69867911 69d7cd23 980522b5 94750a38"))
    }

    @Test("D.4: f6(MacKey, N1, N2, R, IOcap, A1, A2)")
    func f6() throws {
        #expect(try SecurityFunctions.f6(w: Self.macKey, n1: Self.n1, n2: Self.n2,
                                         r: hex("12a3343b b453bb54 08da42d2 0c2d0fc8"), ioCap: hex("010102"),
                                         a1: Self.a1, a2: Self.a2)
                == hex("e3c47398 9cd0e8c5 d26c0b09 da958f61"))
    }

    @Test("D.5: g2(U, V, X, Y)")
    func g2() throws {
        #expect(try SecurityFunctions.g2(u: Self.u, v: Self.v, x: Self.n1, y: Self.n2) == 0x2F9E_D5BA)
    }

    @Test("Wrong lengths throw invalidLength naming the argument")
    func wrongLengths() {
        #expect(throws: BluetoothCryptoError.invalidLength(what: "x", expected: 16, got: 32)) {
            try SecurityFunctions.f4(u: Self.u, v: Self.v, x: Self.u, z: 0)
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "a2", expected: 7, got: 6)) {
            try SecurityFunctions.f5(w: Self.u, n1: Self.n1, n2: Self.n2, a1: Self.a1, a2: Array(Self.a2.prefix(6)))
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "w", expected: 32, got: 16)) {
            try SecurityFunctions.f5(w: Self.n1, n1: Self.n1, n2: Self.n2, a1: Self.a1, a2: Self.a2)
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "ioCap", expected: 3, got: 2)) {
            try SecurityFunctions.f6(w: Self.macKey, n1: Self.n1, n2: Self.n2, r: Self.n1, ioCap: [1, 1],
                                     a1: Self.a1, a2: Self.a2)
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "y", expected: 16, got: 0)) {
            try SecurityFunctions.g2(u: Self.u, v: Self.v, x: Self.n1, y: [])
        }
    }
}
