/// A test-only DEFLATE encoder: fixed-Huffman blocks with greedy LZ77 matching, or stored blocks.
///
/// Independent of the library's decoder so round trips check it; it exercises literals, every length
/// and distance code range, overlapping copies and multi-block streams.
enum TestDeflater {
    private struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var count: UInt32 = 0

        mutating func write(_ value: Int, bits: Int) {
            buffer |= UInt32(value) << count
            count += UInt32(bits)
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        /// Huffman codes go most-significant bit first.
        mutating func writeCode(_ code: Int, bits: Int) {
            var reversed = 0
            for index in 0..<bits where code & (1 << index) != 0 { reversed |= 1 << (bits - 1 - index) }
            write(reversed, bits: bits)
        }

        mutating func flush() {
            if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            buffer = 0
            count = 0
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private static func writeLiteral(_ symbol: Int, _ writer: inout BitWriter) {
        switch symbol {
        case 0...143: writer.writeCode(0x30 + symbol, bits: 8)
        case 144...255: writer.writeCode(0x190 + symbol - 144, bits: 9)
        case 256...279: writer.writeCode(symbol - 256, bits: 7)
        default: writer.writeCode(0xC0 + symbol - 280, bits: 8)
        }
    }

    /// Fixed-Huffman DEFLATE of `input`, split into blocks of `blockSize` input bytes.
    static func deflateFixed(_ input: [UInt8], blockSize: Int = 1 << 30) -> [UInt8] {
        var writer = BitWriter()
        var table: [Int: Int] = [:]
        var position = 0
        if input.isEmpty {
            writer.write(1, bits: 1)
            writer.write(1, bits: 2)
            writeLiteral(256, &writer)
            writer.flush()
            return writer.bytes
        }
        while position < input.count {
            let blockEnd = min(input.count, position + blockSize)
            writer.write(blockEnd == input.count ? 1 : 0, bits: 1)
            writer.write(1, bits: 2)
            while position < blockEnd {
                var bestLength = 0, bestDistance = 0
                if position + 3 <= blockEnd {
                    let key = Int(input[position]) << 16 | Int(input[position + 1]) << 8 | Int(input[position + 2])
                    if let candidate = table[key], position - candidate <= 32768 {
                        var length = 0
                        while length < 258, position + length < blockEnd, input[candidate + length] == input[position + length] { length += 1 }
                        if length >= 3 { bestLength = length; bestDistance = position - candidate }
                    }
                    table[key] = position
                }
                if bestLength >= 3 {
                    let lengthIndex = (lengthBase.lastIndex { $0 <= bestLength }) ?? 0
                    writeLiteral(257 + lengthIndex, &writer)
                    writer.write(bestLength - lengthBase[lengthIndex], bits: lengthExtra[lengthIndex])
                    let distanceIndex = (distanceBase.lastIndex { $0 <= bestDistance }) ?? 0
                    writer.writeCode(distanceIndex, bits: 5)
                    writer.write(bestDistance - distanceBase[distanceIndex], bits: distanceExtra[distanceIndex])
                    for skipped in 1..<bestLength where position + skipped + 3 <= input.count {
                        let at = position + skipped
                        table[Int(input[at]) << 16 | Int(input[at + 1]) << 8 | Int(input[at + 2])] = at
                    }
                    position += bestLength
                } else {
                    writeLiteral(Int(input[position]), &writer)
                    position += 1
                }
            }
            writeLiteral(256, &writer)
        }
        writer.flush()
        return writer.bytes
    }

    /// Stored-block DEFLATE of `input` (blocks of at most 65535 bytes).
    static func deflateStored(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var position = 0
        repeat {
            let count = min(65535, input.count - position)
            let final = position + count == input.count
            out.append(final ? 1 : 0)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += input[position..<(position + count)]
            position += count
        } while position < input.count
        return out
    }
}
