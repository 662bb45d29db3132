import MCUbootImage
import Testing

/// MCUbootImage against images MCUboot's own imgtool made and what its `dumpinfo` and `verify` say about them.
@Suite struct MCUbootImageTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    @Test("Header fields, TLVs and the hash are what imgtool's dumpinfo and verify print", arguments: ["unsigned", "signed-ecdsa-p256", "signed-ed25519"])
    func asImgtoolSeesIt(_ name: String) throws {
        let reference = try ImgtoolDumpinfo(name)
        let bytes = try ImgtoolDumpinfo.bytes(name)
        let image = try MCUbootImage(bytes)
        #expect(reference.number("magic") == Int(MCUbootHeader.magic))
        #expect(reference.number("load_addr") == Int(image.header.loadAddress))
        #expect(reference.number("hdr_size") == image.header.headerSize)
        #expect(reference.number("protected_tlv_size") == image.header.protectedTLVSize)
        #expect(reference.number("img_size") == image.header.imageSize)
        #expect(reference.number("flags") == Int(image.header.flags.rawValue))
        #expect(reference.fields["version"] == image.version.description)
        #expect(reference.tlvs == image.tlvs.map { ImgtoolDumpinfo.TLV(type: $0.kind.rawValue, length: $0.value.count, data: $0.value, isProtected: $0.isProtected) })
        #expect(reference.verifiedDigest == Self.hex(image.hash))
        #expect(Array(bytes[image.header.headerSize..<(image.header.headerSize + image.header.imageSize)]) == (try ImgtoolDumpinfo.bytes("body")))
    }

    @Test("The signed image carries its key hash and one ECDSA signature; the unsigned one neither")
    func signatures() throws {
        let signed = try MCUbootImage(try ImgtoolDumpinfo.bytes("signed-ecdsa-p256"))
        #expect(signed.signatures.map(\.kind) == [.ecdsaSignature])
        #expect(signed.keyHash?.count == 32)
        #expect(signed.header.flags.contains(.ramLoad))
        #expect(signed.tlvs.first { $0.kind == .securityCounter }?.isProtected == true)
        #expect(signed.version == MCUbootVersion(major: 2, minor: 0, revision: 1, build: 77) && signed.version.mcumgrString == "2.0.1.77")
        let unsigned = try MCUbootImage(try ImgtoolDumpinfo.bytes("unsigned"))
        #expect(unsigned.signatures.isEmpty && unsigned.keyHash == nil)
        #expect(unsigned.version < signed.version)
    }

    @Test("A changed byte of the body, or of a protected TLV, fails the hash check naming both hashes")
    func badHash() throws {
        let bytes = try ImgtoolDumpinfo.bytes("signed-ecdsa-p256")
        let image = try MCUbootImage(bytes)
        for offset in [image.header.headerSize + 100, image.header.headerSize + image.header.imageSize + 4] {
            var changed = bytes
            changed[offset] ^= 0x01
            do {
                _ = try MCUbootImage(changed)
                Issue.record("a changed byte at \(offset) passed the hash check")
            } catch {
                guard case .hashMismatch(let stated, let computed) = error else { throw error }
                #expect(stated == image.hash && computed != image.hash)
                #expect(error.description.hasPrefix("MCUboot image: SHA256 TLV \(Self.hex(image.hash)) does not match"))
            }
        }
    }

    @Test("Truncated, foreign and corrupt files are named errors")
    func badFiles() throws {
        let bytes = try ImgtoolDumpinfo.bytes("signed-ecdsa-p256")
        let image = try MCUbootImage(bytes)
        let bodyEnd = image.header.headerSize + image.header.imageSize
        #expect(throws: MCUbootImageError.truncated("the image header", have: 10, need: 32)) { try MCUbootImage(Array(bytes[..<10])) }
        #expect(throws: MCUbootImageError.truncated("the image body", have: 100, need: image.header.imageSize)) {
            try MCUbootImage(Array(bytes[..<(image.header.headerSize + 100)]))
        }
        #expect(throws: MCUbootImageError.truncated("the protected TLV area", have: 2, need: 4)) { try MCUbootImage(Array(bytes[..<(bodyEnd + 2)])) }
        #expect(throws: MCUbootImageError.truncated("the TLV area", have: 100, need: bytes.count - bodyEnd - 12)) {
            try MCUbootImage(Array(bytes[..<(bodyEnd + 12 + 100)]))
        }
        #expect(throws: MCUbootImageError.notAnImage(magic: 0x2c1f1205)) { try MCUbootImage(try ImgtoolDumpinfo.bytes("body")) }
        var badMagic = bytes
        badMagic[bodyEnd + 12] = 0x00
        #expect(throws: MCUbootImageError.badTLVMagic(area: "the TLV area", offset: bodyEnd + 12, found: 0x6900, expected: 0x6907)) {
            try MCUbootImage(badMagic)
        }
        var overrun = bytes
        overrun[bodyEnd + 12 + 4 + 2] = 0xFF  // the SHA-256 TLV's length, now past the area
        #expect(throws: MCUbootImageError.tlvOverrun(area: "the TLV area", offset: bodyEnd + 12 + 4)) { try MCUbootImage(overrun) }
    }
}

/// The factory images a simulated device runs, and versions as imgtool takes them.
@Suite struct MCUbootImageMakingTests {
    @Test("A made image is laid out as imgtool's unsigned one of the same body and version: the same octets")
    func asImgtoolMakesIt() throws {
        let body = try ImgtoolDumpinfo.bytes("body")
        let made = try MCUbootImage.make(version: MCUbootVersion(major: 1, minor: 2, revision: 3, build: 4), body: body)
        let imgtool = try ImgtoolDumpinfo.bytes("unsigned")
        let firstDifference = zip(made.bytes, imgtool).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(made.bytes.count == imgtool.count && firstDifference == nil, "\(made.bytes.count) octets against imgtool's \(imgtool.count); first difference at \(firstDifference.map(String.init) ?? "none")")
    }

    @Test("Versions read as imgtool's --version takes them; anything else is nil")
    func versions() {
        #expect(MCUbootVersion(parsing: "1.2.3") == MCUbootVersion(major: 1, minor: 2, revision: 3, build: 0))
        #expect(MCUbootVersion(parsing: "2.0.1+77") == MCUbootVersion(major: 2, minor: 0, revision: 1, build: 77))
        for bad in ["1.2", "1.2.3.4", "256.0.0", "1.2.3+", "+1", "1..3", "a.b.c", "1.2.3+x", "1.2.-3"] {
            #expect(MCUbootVersion(parsing: bad) == nil, "\(bad)")
        }
    }
}
