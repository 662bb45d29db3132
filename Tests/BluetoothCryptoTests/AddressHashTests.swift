import BluetoothCrypto
import Testing

/// ah against Core v5.4 Vol 3 Part H Appendix D.7, as Bumble's tests/smp_test.py (test_ah) quotes it.
@Suite("ah, the random address hash (§2.2.2, D.7)")
struct AddressHashTests {
    @Test("D.7: ah(IRK, prand)")
    func sampleData() throws {
        #expect(try SecurityFunctions.ah(k: hex("ec0234a3 57c8ad05 341010a6 0a397d9b"), r: hex("708194"))
                == hex("0dfbaa"))
    }

    @Test("A prand of other than 3 octets throws invalidLength")
    func wrongLength() {
        #expect(throws: BluetoothCryptoError.invalidLength(what: "r", expected: 3, got: 6)) {
            try SecurityFunctions.ah(k: [UInt8](repeating: 0, count: 16), r: [1, 2, 3, 4, 5, 6])
        }
    }
}
