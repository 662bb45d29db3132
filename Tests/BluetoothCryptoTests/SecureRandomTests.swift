import BluetoothCrypto
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("Gives the octets asked for, different each time")
    func distinct() throws {
        let first = try SecureRandom.bytes(16)
        let second = try SecureRandom.bytes(16)
        #expect(first.count == 16)
        #expect(second.count == 16)
        // Two equal 128-bit draws have probability 2^-128.
        #expect(first != second)
        #expect(try SecureRandom.bytes(0) == [])
    }

    @Test("A negative count throws invalidArgument")
    func negative() {
        #expect(throws: BluetoothCryptoError.self) { try SecureRandom.bytes(-1) }
    }
}
