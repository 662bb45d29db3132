import CBOR
import Testing
import TestSupport

/// `CBORValue` against RFC 8949 Appendix A's examples: each value's preferred encoding, as the RFC prints it in
/// hex, is what we encode and decodes back to the value; its diagnostic notation is what `description` prints
/// (non-ASCII text printed as itself, which diagnostic notation allows, where the appendix escapes it).
@Suite struct CBORValueTests {
    static func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }

    /// Appendix A's examples of the kinds `CBORValue` holds, with the RFC's diagnostic notation.
    static let examples: [(hex: String, value: CBORValue, diagnostic: String)] = [
        ("00", .unsigned(0), "0"), ("01", .unsigned(1), "1"), ("0a", .unsigned(10), "10"), ("17", .unsigned(23), "23"),
        ("1818", .unsigned(24), "24"), ("1819", .unsigned(25), "25"), ("1864", .unsigned(100), "100"),
        ("1903e8", .unsigned(1000), "1000"), ("1a000f4240", .unsigned(1_000_000), "1000000"),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000), "1000000000000"),
        ("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615), "18446744073709551615"),
        ("3bffffffffffffffff", .negative(argument: .max), "-18446744073709551616"),
        ("20", .int(-1), "-1"), ("29", .int(-10), "-10"), ("3863", .int(-100), "-100"), ("3903e7", .int(-1000), "-1000"),
        ("f4", .bool(false), "false"), ("f5", .bool(true), "true"), ("f6", .null, "null"),
        ("40", .bytes([]), "h''"), ("4401020304", .bytes([1, 2, 3, 4]), "h'01020304'"),
        ("60", .text(""), "\"\""), ("6161", .text("a"), "\"a\""), ("6449455446", .text("IETF"), "\"IETF\""),
        ("62225c", .text("\"\\"), "\"\\\"\\\\\""), ("62c3bc", .text("\u{00fc}"), "\"\u{00fc}\""),
        ("63e6b0b4", .text("\u{6c34}"), "\"\u{6c34}\""), ("64f0908591", .text("\u{10151}"), "\"\u{10151}\""),
        ("80", .array([]), "[]"), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)]), "[1, 2, 3]"),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]),
         "[1, [2, 3], [4, 5]]"),
        ("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { .unsigned(UInt64($0)) }),
         "[" + (1...25).map(String.init).joined(separator: ", ") + "]"),
        ("a0", .map([]), "{}"),
        ("a201020304", .map([CBORMapEntry(.unsigned(1), .unsigned(2)), CBORMapEntry(.unsigned(3), .unsigned(4))]), "{1: 2, 3: 4}"),
        ("a26161016162820203", .map(["a": .unsigned(1), "b": .array([.unsigned(2), .unsigned(3)])]), "{\"a\": 1, \"b\": [2, 3]}"),
        ("826161a161626163", .array([.text("a"), .map(["b": .text("c")])]), "[\"a\", {\"b\": \"c\"}]"),
        ("a56161614161626142616361436164614461656145",
         .map(["a": .text("A"), "b": .text("B"), "c": .text("C"), "d": .text("D"), "e": .text("E")]),
         "{\"a\": \"A\", \"b\": \"B\", \"c\": \"C\", \"d\": \"D\", \"e\": \"E\"}"),
    ]

    @Test("Appendix A's values encode to the RFC's bytes, decode from them, and print its diagnostic notation",
          arguments: examples.indices)
    func appendixA(_ index: Int) throws {
        let example = Self.examples[index]
        #expect(example.value.encoded == Self.bytes(example.hex))
        #expect(try CBORValue(decoding: Self.bytes(example.hex)) == example.value)
        #expect(example.value.description == example.diagnostic)
    }

    /// Appendix A's indefinite-length examples (§3.2): decoded to the definite values they stand for.
    static let indefinite: [(hex: String, value: CBORValue)] = [
        ("5f42010243030405ff", .bytes([1, 2, 3, 4, 5])),
        ("7f657374726561646d696e67ff", .text("streaming")),
        ("9fff", .array([])),
        ("9f018202039f0405ffff", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("9f01820203820405ff", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("83018202039f0405ff", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("bf61610161629f0203ffff", .map(["a": .unsigned(1), "b": .array([.unsigned(2), .unsigned(3)])])),
        ("826161bf61626163ff", .array([.text("a"), .map(["b": .text("c")])])),
        ("bf6346756ef563416d7421ff", .map(["Fun": .bool(true), "Amt": .int(-2)])),
    ]

    @Test("Appendix A's indefinite-length items decode to the values they stand for", arguments: indefinite.indices)
    func indefiniteLength(_ index: Int) throws {
        #expect(try CBORValue(decoding: Self.bytes(Self.indefinite[index].hex)) == Self.indefinite[index].value)
    }

    @Test("Appendix A's floats, tags and undefined are well formed but not taken: a named error at their offset")
    func unsupportedKinds() {
        for hex in ["f90000", "fa47c35000", "fb3ff199999999999a", "c11a514b67b0", "f7"] {
            #expect(throws: CBORError.self, "\(hex)") { try CBORValue(decoding: Self.bytes(hex)) }
        }
        #expect(throws: CBORError.unsupported("tag 1", offset: 2)) { try CBORValue(decoding: Self.bytes("8201c11a514b67b0")) }
    }

    @Test("Malformed input (RFC 8949 Appendix F's examples) is a named error, never a crash")
    func malformed() {
        // F.1: end of input in a head, in a definite string, in an array, in a map, in an indefinite item.
        #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: Self.bytes("18")) }
        #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: Self.bytes("1b01020304050607")) }
        #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: Self.bytes("42")) }
        #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: Self.bytes("5affffffff00")) }
        #expect(throws: CBORError.truncated(offset: 2)) { try CBORValue(decoding: Self.bytes("8301")) }
        #expect(throws: CBORError.truncated(offset: 3)) { try CBORValue(decoding: Self.bytes("a20102")) }
        #expect(throws: CBORError.truncated(offset: 3)) { try CBORValue(decoding: Self.bytes("9f0102")) }
        #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: []) }
        // F.1: reserved additional information values, a break where no indefinite item is open, a break in a map
        // after a key, a chunk of the wrong major type in an indefinite string.
        #expect(throws: CBORError.malformed(offset: 0)) { try CBORValue(decoding: Self.bytes("1c")) }
        #expect(throws: CBORError.malformed(offset: 0)) { try CBORValue(decoding: Self.bytes("ff")) }
        #expect(throws: CBORError.trailingBytes(count: 1, offset: 2)) { try CBORValue(decoding: Self.bytes("8101ff")) }
        #expect(throws: CBORError.malformed(offset: 4)) { try CBORValue(decoding: Self.bytes("bf010203ff")) }
        #expect(throws: CBORError.malformed(offset: 1)) { try CBORValue(decoding: Self.bytes("5f6100ff")) }
        #expect(throws: CBORError.invalidText(offset: 0)) { try CBORValue(decoding: Self.bytes("62c328")) }
        #expect(throws: CBORError.trailingBytes(count: 1, offset: 1)) { try CBORValue(decoding: Self.bytes("0001")) }
    }

    @Test("Hostile nesting, declared lengths and item floods stop at the limits, at the head that crossed them")
    func limits() throws {
        let limits = CBORLimits(depth: 4, length: 8, items: 20)
        #expect(try CBORValue(decoding: Self.bytes("8181818100"), limits: limits) == .array([.array([.array([.array([.unsigned(0)])])])]))
        #expect(throws: CBORError.tooDeep(limit: 4, offset: 4)) { try CBORValue(decoding: Self.bytes("818181818100"), limits: limits) }
        // 100,000 nested arrays under the default limits: an error at depth 17, no stack spent on the rest.
        #expect(throws: CBORError.tooDeep(limit: 16, offset: 16)) { try CBORValue(decoding: Array(repeating: 0x81, count: 100_000)) }
        #expect(throws: CBORError.tooLong(length: 9, limit: 8, offset: 0)) { try CBORValue(decoding: Self.bytes("89"), limits: limits) }
        #expect(throws: CBORError.tooLong(length: 4_294_967_295, limit: 8, offset: 0)) {
            try CBORValue(decoding: Self.bytes("baffffffff"), limits: limits)
        }
        #expect(throws: CBORError.tooLong(length: 9, limit: 8, offset: 0)) {
            try CBORValue(decoding: Self.bytes("49010203040506070809"), limits: limits)
        }
        #expect(throws: CBORError.tooLong(length: 10, limit: 8, offset: 6)) {
            try CBORValue(decoding: Self.bytes("5f440102030446010203040506ff"), limits: limits)
        }
        #expect(throws: CBORError.tooManyItems(limit: 20, offset: 20)) {
            try CBORValue(decoding: Self.bytes("9f" + String(repeating: "00", count: 30) + "ff"), limits: limits)
        }
    }

    @Test("Map lookups find a text key's first value; integer accessors stay in Int's range")
    func accessors() throws {
        let value = try CBORValue(decoding: Self.bytes("a26161016162820203"))
        #expect(value["a"]?.int == 1)
        #expect(value["b"]?.array?.count == 2)
        #expect(value["c"] == nil)
        #expect(CBORValue.negative(argument: .max).int == nil)
        #expect(CBORValue.int(Int.min).int == Int.min)
        #expect(CBORValue.int(Int.min).encoded == Self.bytes("3b7fffffffffffffff"))
    }
}
