import Foundation
import Testing
@testable import Preflight

@Suite("Inflate")
struct InflateTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test func decodesZlibDynamicHuffmanStream() throws {
        let compressed = try Fixture.data("zip/deflate-dynamic.bin")
        let output = try Inflate.decompress([UInt8](compressed))
        #expect(Data(output) == CorpusRecipe.text())
        // The first block header says dynamic Huffman (BTYPE 2).
        #expect((compressed[compressed.startIndex] >> 1) & 0x3 == 2)
    }

    @Test(arguments: [0, 1, 2, 3, 258, 259, 1000, 40_000])
    func roundTripsFixedHuffmanAndStoredBlocks(size: Int) throws {
        let text = [UInt8](CorpusRecipe.text().prefix(size))
        let random = [UInt8](CorpusRecipe.randomBytes(size, seed: size))
        for input in [text, random, [UInt8](repeating: 0x41, count: size)] {
            #expect(try Inflate.decompress(TestDeflater.deflateFixed(input)) == input)
            #expect(try Inflate.decompress(TestDeflater.deflateFixed(input, blockSize: 97)) == input)
            #expect(try Inflate.decompress(TestDeflater.deflateStored(input)) == input)
        }
    }

    @Test func storedBlocksLargerThan64KiB() throws {
        let input = [UInt8](CorpusRecipe.randomBytes(150_000, seed: 11))
        #expect(try Inflate.decompress(TestDeflater.deflateStored(input)) == input)
    }

    /// Yields between cases: a long synchronous loop would hold one of the two cooperative threads of a
    /// 2-core machine for seconds and stall every other test's timers.
    @Test func everyTruncationThrows() async throws {
        let compressed = [UInt8](try Fixture.data("zip/deflate-dynamic.bin"))
        for length in stride(from: 0, to: compressed.count, by: 13) {
            await Task.yield()
            #expect(throws: Inflate.InflateError.self, "length \(length)") { try Inflate.decompress(Array(compressed[0..<length])) }
        }
        let fixed = TestDeflater.deflateFixed(Array("hello hello hello".utf8))
        for length in 0..<fixed.count {
            #expect(throws: Inflate.InflateError.self) { try Inflate.decompress(Array(fixed[0..<length])) }
        }
    }

    @Test func rejectsMalformedStreams() {
        func message(_ bytes: [UInt8], limit: Int = 1 << 20) -> String {
            do {
                _ = try Inflate.decompress(bytes, limit: limit)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(message([0x07]).contains("block type 3"))
        #expect(message([0x01, 0x05, 0x00, 0x00, 0x00]).contains("complement"))
        #expect(message([0x01, 0x05, 0x00, 0xFA, 0xFF, 0x41]).contains("truncated"))
        // Fixed block: a length/distance pair (length 3, distance 1) before any output.
        var writer: [UInt8] = []
        writer = [0x03, 0x02]  // BFINAL=1, BTYPE=1, then symbol 257 (0000001) and distance code 0...
        #expect(message(writer + [0x00, 0x00]).contains("reaches before"))
        // A dynamic header asking for 30+ distance codes.
        #expect(message([0xFD, 0xFF, 0xFF, 0xFF]).contains("too many"))
        // Output past the limit.
        let big = TestDeflater.deflateFixed([UInt8](repeating: 0x41, count: 1000))
        #expect(message(big, limit: 999).contains("larger than"))
        #expect(message(TestDeflater.deflateStored([UInt8](repeating: 1, count: 10)), limit: 9).contains("larger than"))
    }

    @Test func randomGarbageNeverTraps() {
        var generator = SystemRandomNumberGenerator()
        var rejected = 0
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 1..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do {
                _ = try Inflate.decompress(bytes, limit: 1 << 16)
            } catch {
                rejected += 1
            }
        }
        #expect(rejected > 250)
    }
}
