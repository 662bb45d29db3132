import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import StrictJSON
import Testing

/// Rigs, profiles and plans are read within `InputLimits`, like the preflight readers within theirs: past a
/// limit is one short line naming the limit, its value and where, whatever the size of what was written.
@Suite struct InputLimitsTests {
    static func message(_ text: some Collection<UInt8>) -> String {
        do { _ = try InputDocument.parse(text); return "no error" } catch { return error.description }
    }

    static func message(_ text: String) -> String { message(Array(text.utf8)) }

    /// A scratch file holding `bytes`, removed by `body`'s caller.
    @discardableResult
    static func withFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hil-input-limits-\(UUID().uuidString).json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    @Test func aTenMegabyteStringIsOneLineWithItsPathLengthLimitAndStart() {
        let value = String(repeating: "a", count: 10 << 20)
        let text = #"{"steps": [{"at_ms": 0, "do": ""# + value + #""}]}"#
        let message = Self.message(text)
        #expect(message == #"steps[0].do: a string of 10485760 bytes at line 1, column 31, more than InputLimits.stringBytes = 4096: ""#
                + String(repeating: "a", count: 32) + #"…""#)
    }

    @Test func aStringAtTheLimitIsReadAndOneByteMoreIsNot() throws {
        let limit = InputLimits.standard.stringBytes
        #expect(Self.message(#"{"name": ""# + String(repeating: "é", count: limit / 2) + #""}"#) == "no error")
        #expect(Self.message(#"{"name": ""# + String(repeating: "b", count: limit + 1) + #""}"#).hasPrefix("name: a string of 4097 bytes at line 1, column 10, more than"))
        // Escapes count as written: 683 × `\u0041` is 4098 bytes for 683 characters.
        #expect(Self.message(#"{"name": ""# + String(repeating: #"\u0041"#, count: 683) + #""}"#).hasPrefix("name: a string of 4098 bytes"))
    }

    @Test func aLongKeyANeverClosedStringAndALongNumberAreNamedToo() {
        let key = String(repeating: "k", count: 5000)
        #expect(Self.message(#"{"budgets": {""# + key + #"": 1}}"#)
                == #"budgets: a key of 5000 bytes at line 1, column 14, more than InputLimits.stringBytes = 4096: ""# + String(repeating: "k", count: 32) + #"…""#)
        #expect(Self.message(#"[""# + String(repeating: "z", count: 6000)).hasPrefix("[0]: a string of 6000 bytes, never closed, at line 1, column 2, more than"))
        let number = String(repeating: "9", count: 100)
        #expect(Self.message(#"{"accessories": [{"power": {"port": "# + number + "}}]}")
                == "accessories[0].power.port: a number of 100 characters at line 1, column 37, more than InputLimits.numberCharacters = 64: 999999999999999999999999…")
        #expect(Self.message(String(repeating: "9", count: 64)) == "no error")
    }

    @Test func aFilePastItsLimitIsRefusedByItsSize() throws {
        let value = String(repeating: "a", count: 10 << 20)
        let bytes = Array((#"{"steps": [{"at_ms": 0, "do": ""# + value + #""}]}"#).utf8)
        var reads = 0
        let message = try Self.withFile(bytes) { path -> String in
            do throws(InputError) {
                try InputDocument.read(file: path) { (_: InputValue) throws(InputError) in reads += 1 }
                return "no error"
            } catch { return error.description.replacingOccurrences(of: path, with: "PATH") }
        }
        #expect(message == "rig file PATH: \(bytes.count) bytes, more than InputLimits.fileBytes = 1048576")
        #expect(bytes.count == 10_485_795)
        #expect(reads == 0)
    }

    @Test func aFileIsReadNoFurtherThanOneBytePastItsLimit() throws {
        var limits = InputLimits()
        limits.fileBytes = 100
        let fits = Array(("[" + String(repeating: "1,", count: 48) + "11]").utf8)
        #expect(fits.count == 100)
        try Self.withFile(fits) { path throws in
            #expect(try InputFile.contents(path, limit: limits.fileBytes) == fits)
            #expect(throws: Never.self) { try InputDocument.read(file: path, limits: limits) { (_: InputValue) throws(InputError) in } }
        }
        try Self.withFile(fits + [0x20]) { path in
            #expect { try InputFile.contents(path, limit: limits.fileBytes) } throws: {
                ($0 as? InputError)?.message == "101 bytes, more than InputLimits.fileBytes = 100"
            }
        }
        #expect { try InputFile.contents("/nonexistent/rig.json", limit: 100) } throws: {
            ($0 as? InputError)?.message == "cannot read it (no such file)"
        }
    }

    /// A stream has no size to refuse it by: it is read to one byte past the limit, and no further.
    @Test func aStreamIsReadToOneBytePastItsLimit() throws {
        var pipe: [Int32] = [0, 0]
        #expect(pipe.withUnsafeMutableBufferPointer { unistdPipe($0.baseAddress) } == 0)
        defer { close(pipe[0]) }
        // 200 bytes wait in the pipe (its buffer holds 64 KiB); the read must stop at 101.
        let written = [UInt8](repeating: 0x20, count: 200)
        #expect(written.withUnsafeBytes { write(pipe[1], $0.baseAddress, $0.count) } == 200)
        close(pipe[1])
        #expect { try InputFile.contents("/dev/fd/\(pipe[0])", limit: 100) } throws: {
            ($0 as? InputError)?.message == "more than InputLimits.fileBytes = 100 bytes"
        }
    }

    @Test func anExcerptIsOneLineAndCutWithItsLength() {
        #expect(JSONValue.excerpt("disconect") == "disconect")
        #expect(JSONValue.excerpt(String(repeating: "a", count: 4000)) == String(repeating: "a", count: 40) + "… (4000 bytes)")
        #expect(JSONValue.excerpt("\u{1B}[2J\u{7F}\u{85}x\n") == #"\u001B[2J\u007F\u0085x\u000A"#)
        #expect(InputError(at: "name", "'\u{1B}]0;owned\u{07}' is used twice").message == #"name: '\u001B]0;owned\u0007' is used twice"#)
    }
}

/// `pipe(2)`, under a name the suite's own members do not shadow.
private func unistdPipe(_ descriptors: UnsafeMutablePointer<Int32>?) -> Int32 { pipe(descriptors) }
