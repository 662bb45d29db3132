import BluetoothCrypto
import Testing

/// P-256 keys and ECDH against the Core spec's P-256 sample data (Core v5.4 Vol 2 Part G §7.1.2,
/// data sets 1 and 2) and the debug key pair of Vol 3 Part H §2.3.5.6.1.
/// Data set 1 as in Bumble's tests/smp_test.py test_ecc; the debug public key as in Zephyr's
/// subsys/bluetooth/host/ecc.c (least significant octet first there); data set 2 as the Mesh
/// Profile's provisioning sample data (§8.17.1) repeats it.
@Suite("P-256 key pairs and the DHKey")
struct P256KeyPairTests {
    struct DataSet: Sendable, CustomTestStringConvertible {
        let name: String
        let privateA, privateB, publicAX, publicAY, publicBX, publicBY, dhKey: String
        var testDescription: String { name }
    }

    static let dataSets = [
        DataSet(
            name: "data set 1",
            privateA: "3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd",
            privateB: "55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd",
            publicAX: "20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6",
            publicAY: "dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b",
            publicBX: "1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190",
            publicBY: "4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a",
            dhKey: "ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698"),
        DataSet(
            name: "data set 2",
            privateA: "06a51669 3c9aa31a 6084545d 0c5db641 b48572b9 7203ddff b7ac73f7 d0457663",
            privateB: "529aa067 0d72cd64 97502ed4 73502b03 7e8803b5 c60829a5 a3caa219 505530ba",
            publicAX: "2c31a47b 5779809e f44cb5ea af5c3e43 d5f8faad 4a8794cb 987e9b03 745c78dd",
            publicAY: "91951218 3898dfbe cd52e240 8e43871f d0211091 17bd3ed4 eaf84377 43715d4f",
            publicBX: "f465e43f f23d3f1b 9dc7dfc0 4da87581 84dbc966 204796ec cf0d6cf5 e16500cc",
            publicBY: "0201d048 bcbbd899 eeefc424 164e33c2 01c2b010 ca6b4d43 a8a155ca d8ecb279",
            dhKey: "ab85843a 2f6d883f 62e5684b 38e30733 5fe6e194 5ecd1960 4105c6f2 3221eb69"),
    ]

    @Test("Public keys and DHKey of the spec's P-256 sample data", arguments: dataSets)
    func sampleData(_ data: DataSet) throws {
        let a = try P256KeyPair(privateKey: hex(data.privateA))
        let b = try P256KeyPair(privateKey: hex(data.privateB))
        #expect(a.publicKeyX == hex(data.publicAX))
        #expect(a.publicKeyY == hex(data.publicAY))
        #expect(b.publicKeyX == hex(data.publicBX))
        #expect(b.publicKeyY == hex(data.publicBY))
        #expect(try a.dhKey(peerX: b.publicKeyX, peerY: b.publicKeyY) == hex(data.dhKey))
        #expect(try b.dhKey(peerX: hex(data.publicAX), peerY: hex(data.publicAY)) == hex(data.dhKey))
    }

    @Test("The debug key pair of Vol 3 Part H §2.3.5.6.1")
    func debugKeyPair() throws {
        let debug = try P256KeyPair.debugKeyPair()
        #expect(debug.privateKey == hex("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd"))
        #expect(debug.publicKeyX == hex("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6"))
        #expect(debug.publicKeyY == hex("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b"))
    }

    @Test("Two fresh key pairs agree on the DHKey, and differ from each other")
    func freshPairsAgree() throws {
        let a = try P256KeyPair()
        let b = try P256KeyPair()
        #expect(a != b)
        #expect([a.privateKey.count, a.publicKeyX.count, a.publicKeyY.count] == [32, 32, 32])
        let fromA = try a.dhKey(peerX: b.publicKeyX, peerY: b.publicKeyY)
        #expect(fromA.count == 32)
        #expect(fromA == (try b.dhKey(peerX: a.publicKeyX, peerY: a.publicKeyY)))
        // A pair made again from its private key is the same pair.
        #expect(try P256KeyPair(privateKey: a.privateKey) == a)
    }

    @Test("A peer point off the curve throws invalidPublicKey (the invalid curve attack defence)")
    func offCurve() throws {
        let own = try P256KeyPair.debugKeyPair()
        var y = hex("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a")
        y[31] ^= 0x01
        let x = hex("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190")
        #expect(throws: BluetoothCryptoError.invalidPublicKey) { try own.dhKey(peerX: x, peerY: y) }
        let zero = [UInt8](repeating: 0, count: 32)
        #expect(throws: BluetoothCryptoError.invalidPublicKey) { try own.dhKey(peerX: zero, peerY: zero) }
        let ones = [UInt8](repeating: 0xFF, count: 32)
        #expect(throws: BluetoothCryptoError.invalidPublicKey) { try own.dhKey(peerX: ones, peerY: ones) }
    }

    @Test("Keys of the wrong length throw invalidLength naming them; a zero private key is refused")
    func wrongLengths() throws {
        #expect(throws: BluetoothCryptoError.invalidLength(what: "privateKey", expected: 32, got: 31)) {
            try P256KeyPair(privateKey: [UInt8](repeating: 1, count: 31))
        }
        let own = try P256KeyPair.debugKeyPair()
        #expect(throws: BluetoothCryptoError.invalidLength(what: "peerX", expected: 32, got: 33)) {
            try own.dhKey(peerX: [0] + own.publicKeyX, peerY: own.publicKeyY)
        }
        #expect(throws: BluetoothCryptoError.invalidLength(what: "peerY", expected: 32, got: 0)) {
            try own.dhKey(peerX: own.publicKeyX, peerY: [])
        }
        #expect(throws: BluetoothCryptoError.invalidPrivateKey) {
            try P256KeyPair(privateKey: [UInt8](repeating: 0, count: 32))
        }
        // n itself, the order of P-256 (FIPS 186-4 D.1.2.3), is not a private key.
        #expect(throws: BluetoothCryptoError.invalidPrivateKey) {
            try P256KeyPair(privateKey: hex("ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551"))
        }
    }
}
