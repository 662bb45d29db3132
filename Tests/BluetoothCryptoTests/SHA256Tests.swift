import BluetoothCrypto
import Testing

/// SHA-256 against FIPS 180-2's examples (Appendix B.1, B.2) and the empty string.
@Suite("SHA-256")
struct SHA256Tests {
    @Test("FIPS 180-2 B.1 \"abc\", B.2 the 448-bit message, and the empty string")
    func vectors() throws {
        #expect(try SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try SHA256.hexDigest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(try SHA256.hexDigest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try SHA256.digest(Array("abc".utf8)).count == 32)
    }
}
