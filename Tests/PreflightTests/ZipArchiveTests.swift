import Foundation
import Testing
@testable import Preflight

@Suite("Zip archive")
struct ZipArchiveTests {
    @Test func extractsEveryEntryOfAPythonWrittenArchive() throws {
        let archive = try ZipArchive(try Fixture.data("zip/corpus.zip"), file: "corpus.zip")
        let expected = CorpusRecipe.entries()
        #expect(archive.entries.map(\.path) == expected.map(\.0))
        for (path, contents) in expected {
            let entry = try #require(archive.entry(path))
            #expect(try archive.extract(entry) == contents, "\(path)")
        }
        #expect(archive.entry("stored.txt")?.method == 0)
        #expect(archive.entry("level9.txt")?.method == 8)
    }

    @Test func readsZIP64Records() throws {
        let data = try Fixture.data("zip/zip64.zip")
        let archive = try ZipArchive(data, file: "zip64.zip")
        #expect(archive.entries.count == 4)
        for (path, contents) in CorpusRecipe.entries().prefix(4) {
            #expect(try archive.extract(try #require(archive.entry(path))) == contents)
        }
        // A ZIP64 locator precedes the classic end record, and entries carry ZIP64 extra fields.
        #expect(data.suffix(42).starts(with: [0x50, 0x4B, 0x06, 0x07]))
        // Saturate the classic end record, as a > 4 GiB archive has it: the ZIP64 record alone must suffice.
        var saturated = data
        for offset in (data.count - 12)..<(data.count - 2) { saturated[offset] = 0xFF }
        let reread = try ZipArchive(saturated, file: "zip64.zip")
        #expect(try reread.extract(try #require(reread.entry("level9.txt"))) == CorpusRecipe.text())
        // A saturated end record without the ZIP64 records is an error, not a guess.
        var plain = TestZipWriter()
        plain.add("x", Data("1".utf8))
        var broken = plain.build()
        for offset in (broken.count - 6)..<(broken.count - 2) { broken[offset] = 0xFF }
        #expect { try ZipArchive(broken, file: "b.zip") } throws: { error in
            (error as? PreflightError)?.description.contains("ZIP64 end-of-central-directory record missing") == true
        }
    }

    @Test func readsWhatTheTestWriterWrites() throws {
        var writer = TestZipWriter()
        writer.add("a.txt", Data("stored entry".utf8), method: .stored)
        writer.add("b/c.xml", CorpusRecipe.text())
        writer.add("empty", Data())
        let archive = try ZipArchive(writer.build(), file: "t.zip")
        #expect(try archive.extract(try #require(archive.entry("a.txt"))) == Data("stored entry".utf8))
        #expect(try archive.extract(try #require(archive.entry("b/c.xml"))) == CorpusRecipe.text())
        #expect(try archive.extract(try #require(archive.entry("empty"))).isEmpty)
    }

    @Test func toleratesAnArchiveComment() throws {
        var writer = TestZipWriter()
        writer.add("x", Data("1".utf8))
        var data = writer.build()
        let comment = Data("signed by nobody".utf8)
        data[data.count - 2] = UInt8(comment.count)
        data += comment
        let archive = try ZipArchive(data, file: "c.zip")
        #expect(archive.entries.map(\.path) == ["x"])
    }

    @Test func everyTruncationIsAZipError() throws {
        let data = try Fixture.data("ios/Sample.ipa")
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 300)) {
            do {
                let archive = try ZipArchive(data.prefix(length), file: "cut.ipa")
                for entry in archive.entries { _ = try archive.extract(entry) }
                Issue.record("truncated archive of \(length) bytes was read whole")
            } catch {
                guard case .zip(let file, _) = error else { Issue.record("\(error)"); continue }
                #expect(file == "cut.ipa")
            }
        }
    }

    @Test func detectsCorruptedDataByCRC() throws {
        var writer = TestZipWriter()
        writer.add("m.txt", Data("the quick brown fox".utf8), method: .stored)
        var data = writer.build()
        data[30 + 5 + 4] ^= 0x20  // a byte of the stored data
        let archive = try ZipArchive(data, file: "crc.zip")
        #expect { try archive.extract(try #require(archive.entry("m.txt"))) } throws: { error in
            (error as? PreflightError)?.description.contains("CRC-32 mismatch") == true
        }
    }

    @Test func corruptedDeflateDataIsAZipError() throws {
        var writer = TestZipWriter()
        writer.add("m.txt", CorpusRecipe.text())
        var data = writer.build()
        for offset in 40..<200 { data[offset] = 0xFF }
        let archive = try ZipArchive(data, file: "bad.zip")
        #expect(throws: PreflightError.self) { try archive.extract(try #require(archive.entry("m.txt"))) }
    }

    @Test func rejectsUnsupportedMethodsEncryptionAndBadDirectories() throws {
        var writer = TestZipWriter()
        writer.add("m.txt", Data("x".utf8), method: .stored)
        let good = writer.build()
        let centralOffset = good.count - 22 - (46 + 5)

        var method = good
        method[centralOffset + 10] = 12  // bzip2
        let archive = try ZipArchive(method, file: "m.zip")
        #expect { try archive.extract(archive.entries[0]) } throws: { error in
            (error as? PreflightError)?.description.contains("method 12 is not supported") == true
        }

        var encrypted = good
        encrypted[centralOffset + 8] |= 1
        let locked = try ZipArchive(encrypted, file: "e.zip")
        #expect { try locked.extract(locked.entries[0]) } throws: { error in
            (error as? PreflightError)?.description.contains("encrypted") == true
        }

        var badSignature = good
        badSignature[centralOffset] = 0
        #expect { try ZipArchive(badSignature, file: "s.zip") } throws: { error in
            (error as? PreflightError)?.description.contains("bad signature") == true
        }

        var manyEntries = good
        manyEntries[good.count - 12] = 0xFF  // total entries (low byte)
        #expect { try ZipArchive(manyEntries, file: "n.zip") } throws: { error in
            (error as? PreflightError)?.description.contains("claims 255 entries") == true
        }

        var farDirectory = good
        farDirectory[good.count - 4] = 0x7F  // directory offset high byte
        #expect { try ZipArchive(farDirectory, file: "o.zip") } throws: { error in
            (error as? PreflightError)?.description.contains("past the end") == true
        }
    }

    @Test func garbageIsNotAZip() {
        #expect(throws: PreflightError.self) { try ZipArchive(Data("PK\u{3}\u{4}not really".utf8), file: "g") }
        #expect(throws: PreflightError.self) { try ZipArchive(Data(repeating: 0x50, count: 100), file: "g") }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            var bytes = Data([0x50, 0x4B, 0x05, 0x06])
            bytes += Data((0..<Int.random(in: 18..<80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            do {
                let archive = try ZipArchive(bytes, file: "r")
                for entry in archive.entries { _ = try? archive.extract(entry) }
            } catch {
                #expect(error.description.hasPrefix("r:"))
            }
        }
    }
}
