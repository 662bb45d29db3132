import Foundation
import Testing
@testable import Preflight

/// The binary property list reader against mutants of a real bplist (written by Python's plistlib): every
/// refusal says what is wrong and at which offset. (Python's plistlib, read on the same bytes, agrees on what is
/// a property list at all: `BinaryPropertyListPlistlibTests`.)
@Suite("Binary property list reader")
struct BinaryPropertyListTests {
    /// What a refusal must start with: the object and its offset, or the trailer or offset-table entry.
    static var located: Regex<(Substring, Substring?)> { #/^binary property list: (object \d+ at offset 0x[0-9a-f]+: |trailer at offset 0x[0-9a-f]+: |offset table entry \d+ at offset 0x[0-9a-f]+: |\d+ bytes is too short|version '.*' at offset 0x6 )|^the top level is an? [a-z]+, not a dict$/# }

    /// Every truncation, and every byte flipped (XOR 0xFF) and zeroed, of the fixture.
    static func mutants() throws -> [(name: String, data: Data)] {
        let original = try Fixture.data("ios/Info-binary.plist")
        var mutants: [(String, Data)] = (0..<original.count).map { ("truncated to \($0)", original.prefix($0)) }
        for index in 0..<original.count {
            for (what, transform) in [("flipped", { (byte: UInt8) in byte ^ 0xFF }), ("zeroed", { _ in 0 })] {
                var data = original
                data[index] = transform(data[index])
                if data != original { mutants.append(("byte \(index) \(what)", data)) }
            }
        }
        return mutants
    }

    @Test func everyRefusedMutantNamesWhatAndWhere() throws {
        var refused = 0
        for (name, data) in try Self.mutants() {
            do {
                _ = try PropertyListReader.readDictionary(data, file: "m.plist")
            } catch {
                refused += 1
                guard case .propertyList(_, let message) = error, data.starts(with: Array("bplist".utf8)) else {
                    // A prefix shorter than "bplist" is no longer detected as binary.
                    #expect(!data.starts(with: Array("bplist".utf8)), "\(name): \(error)")
                    continue
                }
                #expect(message.firstMatch(of: Self.located) != nil, "\(name): \(message)")
                #expect(!message.contains("Unexpected character"), "\(name): \(message)")
            }
        }
        #expect(refused > 1000)
    }

    /// `bplist00` holding { "k": object 2 }, object 2 (at offset 0xd) being `value`'s bytes.
    static func oneEntry(_ value: [UInt8]) -> Data {
        var data = Data("bplist00".utf8)
        data += [0xD1, 0x01, 0x02]  // object 0 at 0x8: dict of 1, key object 1, value object 2
        data += [0x51, 0x6B]  // object 1 at 0xb: "k"
        data += value  // object 2 at 0xd
        let table = data.count
        data += [0x08, 0x0B, 0x0D]
        data += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return data
    }

    @Test func aTruncatedStringNamesItsObjectOffsetAndLength() throws {
        let data = Self.oneEntry([0x5F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF])  // a string claiming 0x7fffffff bytes
        #expect(throws: PreflightError.propertyList(file: "s.plist", message: "binary property list: object 2 at offset 0xd: length 0x7fffffff runs past the end (file is \(data.count) bytes)")) {
            _ = try PropertyListReader.readDictionary(data, file: "s.plist")
        }
    }

    @Test func aContainerThatContainsItselfIsRefused() throws {
        let data = Self.oneEntry([0xA1, 0x02])  // an array holding itself
        #expect(throws: PreflightError.propertyList(file: "l.plist", message: "binary property list: object 2 at offset 0xd: refers to object 2, which contains it (a loop)")) {
            _ = try PropertyListReader.readDictionary(data, file: "l.plist")
        }
    }

    @Test func sharedContainersCountEveryTimeTheyAreReached() throws {
        // 40 arrays, each holding the next twice: 2^40 values reached from 41 objects.
        var data = Data("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(data.count); data += [0xD1, 0x01, 0x02]  // object 0: { "k": object 2 }
        offsets.append(data.count); data += [0x51, 0x6B]
        for object in 2..<42 {
            offsets.append(data.count)
            data += object == 41 ? [0x08] : [0xA2, UInt8(object + 1), UInt8(object + 1)]
        }
        let table = data.count
        for offset in offsets { data += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        data += [0, 0, 0, 0, 0, 0, 2, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(offsets.count)] + [0, 0, 0, 0, 0, 0, 0, 0]
        data += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
        do {
            _ = try PropertyListReader.readDictionary(data, file: "b.plist")
            Issue.record("2^40 values accepted")
        } catch {
            #expect(error.description.contains("value number 1000001, more than ReaderLimits.values = 1000000"), "\(error)")
        }
    }
}
