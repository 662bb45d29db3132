import BluetoothCrypto
import Testing

/// c1 and s1 against the worked examples of Core v5.4 Vol 3 Part H §2.2.3 and §2.2.4, as Bumble's
/// tests/smp_test.py (test_c1, test_s1) quotes them.
@Suite("c1 and s1, LE legacy pairing (§2.2.3, §2.2.4)")
struct LegacyPairingTests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)

    @Test("c1 of the §2.2.3 example")
    func c1() throws {
        let confirm = try SecurityFunctions.c1(
            k: Self.zeroKey, r: hex("5783D521 56AD6F0E 6388274E C6702EE0"),
            preq: hex("07071000000101"), pres: hex("05000800000302"),
            iat: 1, ia: hex("A1A2A3A4A5A6"), rat: 0, ra: hex("B1B2B3B4B5B6"))
        #expect(confirm == hex("1e1e3fef 878988ea d2a74dc5 bef13b86"))
    }

    @Test("s1 of the §2.2.4 example")
    func s1() throws {
        let stk = try SecurityFunctions.s1(k: Self.zeroKey, r1: hex("000F0E0D 0C0B0A09 11223344 55667788"),
                                           r2: hex("01020304 05060708 99AABBCC DDEEFF00"))
        #expect(stk == hex("9a1fe1f0 e8b0f49b 5b4216ae 796da062"))
    }

    @Test("Wrong lengths and address types are refused, naming the argument")
    func refusals() {
        let r = [UInt8](repeating: 0, count: 16), seven = [UInt8](repeating: 0, count: 7)
        let six = [UInt8](repeating: 0, count: 6)
        #expect(throws: BluetoothCryptoError.invalidLength(what: "preq", expected: 7, got: 6)) {
            try SecurityFunctions.c1(k: Self.zeroKey, r: r, preq: six, pres: seven, iat: 0, ia: six, rat: 0, ra: six)
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "ra", expected: 6, got: 7)) {
            try SecurityFunctions.c1(k: Self.zeroKey, r: r, preq: seven, pres: seven, iat: 0, ia: six, rat: 0, ra: seven)
        }
        #expect(throws: BluetoothCryptoError.invalidArgument(what: "iat", reason: "an address type is 0 or 1, not 2")) {
            try SecurityFunctions.c1(k: Self.zeroKey, r: r, preq: seven, pres: seven, iat: 2, ia: six, rat: 0, ra: six)
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "r2", expected: 16, got: 8)) {
            try SecurityFunctions.s1(k: Self.zeroKey, r1: r, r2: Array(r.prefix(8)))
        }
    }
}
