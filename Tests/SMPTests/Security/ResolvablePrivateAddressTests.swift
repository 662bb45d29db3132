@testable import HCIPackets
@testable import SMP
import Testing

/// Resolvable private addresses (Core v5.4 Vol 6 Part B §1.3.2.2: prand in the 24 most significant bits,
/// 0b01 on top, hash = ah(IRK, prand) in the 24 least) against the ah sample data of Vol 3 Part H
/// Appendix D.7.
@Suite("ResolvablePrivateAddress")
struct ResolvablePrivateAddressTests {
    /// D.7's IRK, written most significant octet first: ec0234a3 57c8ad05 341010a6 0a397d9b. The APIs take
    /// IRKs in HCI order, least significant first.
    static let sampleIRK: [UInt8] = Array([0xEC, 0x02, 0x34, 0xA3, 0x57, 0xC8, 0xAD, 0x05,
                                           0x34, 0x10, 0x10, 0xA6, 0x0A, 0x39, 0x7D, 0x9B].reversed())
    /// prand 0x708194 and hash 0x0dfbaa make the address 0x7081940DFBAA.
    static let sampleRPA = BDAddress(0x70_81_94_0D_FB_AA)

    @Test("D.7: the sample IRK resolves 70:81:94:0D:FB:AA")
    func sample() {
        #expect(Self.sampleRPA.description == "70:81:94:0D:FB:AA")
        #expect(ResolvablePrivateAddress.resolves(Self.sampleRPA, with: Self.sampleIRK))
    }

    @Test("Another IRK, the IRK in the wrong octet order, or a flipped hash bit do not resolve")
    func nonMatches() {
        var other = Self.sampleIRK
        other[0] ^= 0x01
        #expect(!ResolvablePrivateAddress.resolves(Self.sampleRPA, with: other))
        #expect(!ResolvablePrivateAddress.resolves(Self.sampleRPA, with: Self.sampleIRK.reversed()))
        for bit in 0..<24 {
            let flipped = BDAddress(Self.sampleRPA.value ^ (1 << UInt64(bit)))
            #expect(!ResolvablePrivateAddress.resolves(flipped, with: Self.sampleIRK), "hash bit \(bit)")
        }
    }

    @Test("Addresses that are not resolvable private addresses do not resolve")
    func otherForms() {
        // The same 46 bits with a static (0b11) or non-resolvable (0b00) top.
        #expect(!ResolvablePrivateAddress.resolves(BDAddress(0xF0_81_94_0D_FB_AA), with: Self.sampleIRK))
        #expect(!ResolvablePrivateAddress.resolves(BDAddress(0x30_81_94_0D_FB_AA), with: Self.sampleIRK))
        #expect(!ResolvablePrivateAddress.resolves(Self.sampleRPA, with: Array(Self.sampleIRK.prefix(15))))
    }

    @Test("generate(with:) makes addresses with top bits 01 that resolve with their IRK only")
    func generate() throws {
        var addresses: Set<BDAddress> = []
        for _ in 0..<32 {
            let address = try ResolvablePrivateAddress.generate(with: Self.sampleIRK)
            #expect(address.bigEndianBytes[0] >> 6 == 0b01)
            let prandRandomPart = address.value >> 24 & 0x3F_FFFF
            #expect(prandRandomPart != 0 && prandRandomPart != 0x3F_FFFF)
            #expect(ResolvablePrivateAddress.resolves(address, with: Self.sampleIRK))
            #expect(!ResolvablePrivateAddress.resolves(address, with: Array(repeating: 0x5A, count: 16)))
            addresses.insert(address)
        }
        #expect(addresses.count > 1, "prand is not random")
    }

    @Test("Bond.matches: the identity address, or a random address the bond's IRK resolves")
    func bondMatches() throws {
        let identity = BDAddress(0xC4_11_22_33_44_55)
        let bond = Bond(peerAddress: identity, peerAddressType: .random, peerIdentityResolvingKey: Self.sampleIRK,
                        longTermKey: nil, localLongTermKey: nil, keySize: 16, authenticated: false, secureConnections: true,
                        method: "just-works")
        #expect(bond.matches(address: identity, type: .random))
        #expect(!bond.matches(address: identity, type: .public))
        #expect(bond.matches(address: Self.sampleRPA, type: .random))
        #expect(!bond.matches(address: Self.sampleRPA, type: .public))
        #expect(!bond.matches(address: BDAddress(Self.sampleRPA.value ^ 1), type: .random))
        var withoutIRK = bond
        withoutIRK.peerIdentityResolvingKey = nil
        #expect(!withoutIRK.matches(address: Self.sampleRPA, type: .random))
        let fresh = try ResolvablePrivateAddress.generate(with: Self.sampleIRK)
        #expect(bond.matches(address: fresh, type: .random))
    }
}
