import Foundation
import Testing
import StrictJSON

/// The parser against RFC 8259's grammar: what it accepts, what it refuses, and where it says things are.
@Suite struct JSONParserTests {
    static func value(_ text: String) throws(InputError) -> JSONValue { try JSONParser.parse(text).value }

    static func message(_ text: String) -> String {
        do { _ = try JSONParser.parse(text); return "no error" } catch { return error.description }
    }

    @Test func rfc8259Examples() throws {
        // RFC 8259 §13, the first example (abridged to its kinds: nested objects, an array of numbers, booleans).
        let image = try Self.value(#"""
        {"Image": {"Width": 800, "Height": 600, "Title": "View from 15th Floor",
                   "Thumbnail": {"Url": "http://www.example.com/image/481989943", "Height": 125, "Width": 100},
                   "Animated" : false, "IDs": [116, 943, 234, 38793]}}
        """#)
        guard case .object(let top) = image, case .object(let fields) = top.first?.value.value else { Issue.record("not an object"); return }
        #expect(fields.map(\.key) == ["Width", "Height", "Title", "Thumbnail", "Animated", "IDs"])
        #expect(fields[4].value.value == .bool(false))
        guard case .array(let ids) = fields[5].value.value else { Issue.record("IDs is not an array"); return }
        #expect(ids.map(\.value) == [.number("116"), .number("943"), .number("234"), .number("38793")])
        // §13, the second example: an array of objects with a negative and a fractional number.
        let places = try Self.value(#"[{"precision": "zip", "Latitude": 37.7668, "Longitude": -122.3959, "Zip": "94107"}]"#)
        guard case .array(let items) = places, case .object(let place) = items.first?.value else { Issue.record("not an array"); return }
        #expect(place.map(\.value.value) == [.string("zip"), .number("37.7668"), .number("-122.3959"), .string("94107")])
        // §13: scalars are JSON texts too.
        #expect(try Self.value(#""Hello world!""#) == .string("Hello world!"))
        #expect(try Self.value("42") == .number("42"))
        #expect(try Self.value("true") == .bool(true))
        #expect(try Self.value(" null ") == .null)
    }

    @Test func escapesAndSurrogatePairs() throws {
        // RFC 8259 §7: the two-character escapes, \u escapes, and a UTF-16 surrogate pair for U+1D11E.
        #expect(try Self.value(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
        #expect(try Self.value(#""\u005C \u00e9 \u20AC""#) == .string("\\ é €"))
        #expect(try Self.value(#""\uD834\uDD1E""#) == .string("\u{1D11E}"))
        #expect(try Self.value("\"é𝄞\"") == .string("é𝄞"))
        #expect(Self.message(#""\uD834""#) == #"line 1, column 2: a high surrogate \uD834 must be followed by a low surrogate \uDC00…\uDFFF"#)
        #expect(Self.message(#""\uDD1E""#) == #"line 1, column 2: a lone low surrogate \uDD1E is not a character"#)
        #expect(Self.message(#""\x41""#) == #"line 1, column 3: expected one of \" \\ \/ \b \f \n \r \t \uXXXX, found 'x'"#)
        #expect(Self.message(#""\u12G4""#) == #"line 1, column 6: expected four hexadecimal digits after \u, found 'G'"#)
        #expect(Self.message("\"a\nb\"") == "line 1, column 3: expected a control character to be escaped in a string (\\n, \\t, \\u00XX), found a line break")
        #expect(Self.message("\"open") == "line 1, column 6: expected '\"' to close the string, found the end of the file")
    }

    @Test func numbersKeepTheirText() throws {
        // RFC 8259 §6: int, frac and exp parts; E or e; + or - in the exponent.
        for text in ["0", "-0", "1.5", "-2.5e3", "1e22", "1E+2", "1e-2", "9223372036854775808", "123456789012345678901234567890"] {
            #expect(try Self.value(text) == .number(text))
        }
        #expect(Self.message("01") == "line 1, column 1: a JSON number has no leading zeros")
        #expect(Self.message("-01") == "line 1, column 1: a JSON number has no leading zeros")
        #expect(Self.message("1.") == "line 1, column 3: expected a digit after the decimal point, found the end of the file")
        #expect(Self.message(".5") == "line 1, column 1: expected a JSON value, found '.'")
        #expect(Self.message("1e") == "line 1, column 3: expected a digit in the exponent, found the end of the file")
        #expect(Self.message("+1") == "line 1, column 1: expected a JSON value, found '+'")
        #expect(Self.message("-") == "line 1, column 2: expected a digit in the number, found the end of the file")
        #expect(Self.message("0x10") == "line 1, column 2: expected the end of the file after the JSON value, found 'x'")
    }

    @Test func refusesWhatTheGrammarDoesNotAllow() {
        #expect(Self.message("[1, 2,]") == "line 1, column 7: expected a JSON value after ',' (no trailing commas in JSON), found ']'")
        #expect(Self.message(#"{"a": 1,}"#) == "line 1, column 9: expected a string key after ',' (no trailing commas in JSON), found '}'")
        #expect(Self.message("{\"a\": 1 // note\n}") == "line 1, column 9: expected ',' or '}' after an object member, found '/'")
        #expect(Self.message("/* rig */ {}") == "line 1, column 1: expected a JSON value (JSON has no comments), found '/'")
        #expect(Self.message("{'a': 1}") == "line 1, column 2: expected a string key or '}' in an object, found '''")
        #expect(Self.message("{a: 1}") == "line 1, column 2: expected a string key or '}' in an object, found 'a'")
        #expect(Self.message(#"{"a" 1}"#) == #"line 1, column 6: expected ':' after the object key "a", found '1'"#)
        #expect(Self.message("[1 2]") == "line 1, column 4: expected ',' or ']' after an array element, found '2'")
        #expect(Self.message("tru") == "line 1, column 1: expected a JSON value (true, false or null?), found 't…'")
        #expect(Self.message("nulls") == "line 1, column 1: expected a JSON value (null followed by 's' is not one)")
        #expect(Self.message("{} {}") == "line 1, column 4: expected the end of the file after the JSON value, found '{'")
        #expect(Self.message("") == "line 1, column 1: expected a JSON value, found the end of the file")
        #expect(Self.message(#"{"a": 1, "a": 2}"#) == #"line 1, column 10: the key "a" appears twice in one object (first at line 1, column 2)"#)
        #expect(Self.message("[\u{7F}]").hasPrefix("line 1, column 2: expected a JSON value"))
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: InputError.self) { try JSONParser.parse(bytes) }
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        #expect { try JSONParser.parse(overlong) } throws: { ($0 as? InputError)?.description == "line 1, column 2: expected UTF-8 text, found the byte 0xC0 (not UTF-8)" }
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(deep) }
        let deeper = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(Self.message(deeper) == "line 1, column 65: arrays and objects nested 65 deep, more than InputLimits.nestingDepth = 64")
        // Far deeper than the stack would allow without the limit.
        #expect(Self.message(String(repeating: "[", count: 100_000)).hasSuffix("arrays and objects nested 65 deep, more than InputLimits.nestingDepth = 64"))
    }

    @Test func positionsMatchAHandWrittenFile() throws {
        let url = try #require(Bundle.module.url(forResource: "positions", withExtension: "json", subdirectory: "Fixtures"))
        let root = try JSONParser.parse(Array(try Data(contentsOf: url)))
        #expect(root.position == JSONPosition(line: 1, column: 1))
        guard case .object(let top) = root.value, case .object(let nested) = top[1].value.value,
              case .array(let list) = nested[0].value.value else { Issue.record("unexpected shape"); return }
        #expect(top.map(\.keyPosition) == [JSONPosition(line: 2, column: 3), JSONPosition(line: 3, column: 3), JSONPosition(line: 9, column: 3)])
        #expect(top[0].value.position == JSONPosition(line: 2, column: 11))
        #expect(list.map(\.position) == [JSONPosition(line: 4, column: 14), JSONPosition(line: 4, column: 17), JSONPosition(line: 5, column: 14)])
        #expect(list[1].value == .number("-2.5e3"))
        // Columns count characters, not bytes: "é" is one column.
        #expect(nested[1].key == "é" && nested[1].value.position == JSONPosition(line: 6, column: 10))
        #expect(nested[2].value.position == JSONPosition(line: 7, column: 14))
        #expect(top[2].value.position == JSONPosition(line: 9, column: 11))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)).value == .object([]))
    }
}
