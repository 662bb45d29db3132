/// A raw DEFLATE (RFC 1951) decoder: stored, fixed-Huffman and dynamic-Huffman blocks.
///
/// Written for the few small entries the lint reads (Info.plist, AndroidManifest.xml): correctness and
/// refusal of malformed streams over speed. Every fault — truncated input, an over-subscribed or
/// incomplete code, a distance reaching before the output, output past `limit` — throws `InflateError`.
package enum Inflate {
    /// Why a DEFLATE stream could not be decoded.
    package struct InflateError: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// Decompresses a raw DEFLATE stream.
    /// - Parameters:
    ///   - input: the compressed bytes (no zlib or gzip header).
    ///   - limit: the most bytes the output may hold; a stream that inflates past it is an error.
    package static func decompress(_ input: [UInt8], limit: Int = 256 << 20) throws(InflateError) -> [UInt8] {
        var state = State(input: input, limit: limit)
        try state.run()
        return state.output
    }

    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)  // number of codes of each length
        var symbols: [Int] = []  // symbols ordered by code
        /// 0 for a complete code, > 0 for an incomplete one, < 0 for an over-subscribed one.
        var left = 1
        /// How many symbols have a code.
        var used = 0

        /// Builds canonical codes from code lengths (0 = symbol unused); check `left` before use.
        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            used = lengths.count - counts[0]
            for length in 1..<16 {
                left <<= 1
                left -= counts[length]
                if left < 0 { break }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        /// Rejects an over-subscribed code, and an incomplete one unless it is a single one-bit code
        /// (RFC 1951 §3.2.7 permits one distance code; zlib accepts the same for literals).
        func validated(_ what: String, allowEmpty: Bool = false) throws(InflateError) -> Huffman {
            guard left >= 0 else { throw InflateError("over-subscribed \(what) code") }
            if used == 0 {
                guard allowEmpty else { throw InflateError("empty \(what) code") }
                return self
            }
            guard left == 0 || (used == 1 && counts[1] == 1) else { throw InflateError("incomplete \(what) code") }
            return self
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private struct State {
        let input: [UInt8]
        let limit: Int
        var output: [UInt8] = []
        var position = 0
        var bitBuffer = 0
        var bitCount = 0

        mutating func bits(_ need: Int) throws(InflateError) -> Int {
            var value = bitBuffer
            while bitCount < need {
                guard position < input.count else { throw InflateError("truncated stream: input ends inside a block") }
                value |= Int(input[position]) << bitCount
                position += 1
                bitCount += 8
            }
            bitBuffer = value >> need
            bitCount -= need
            return value & ((1 << need) - 1)
        }

        mutating func run() throws(InflateError) {
            var last = false
            while !last {
                last = try bits(1) == 1
                switch try bits(2) {
                case 0: try stored()
                case 1: try codes(Inflate.fixedLengths, Inflate.fixedDistances)
                case 2: try dynamic()
                default: throw InflateError("invalid block type 3")
                }
            }
        }

        mutating func stored() throws(InflateError) {
            bitBuffer = 0
            bitCount = 0
            guard position + 4 <= input.count else { throw InflateError("truncated stream: stored block header") }
            let length = Int(input[position]) | Int(input[position + 1]) << 8
            let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
            position += 4
            guard length == (~complement & 0xFFFF) else { throw InflateError("stored block length does not match its complement") }
            guard position + length <= input.count else { throw InflateError("truncated stream: stored block data") }
            guard output.count + length <= limit else { throw InflateError("output larger than the expected \(limit) bytes") }
            output.append(contentsOf: input[position..<(position + length)])
            position += length
        }

        mutating func decode(_ huffman: Huffman) throws(InflateError) -> Int {
            var code = 0, first = 0, index = 0
            for length in 1..<16 {
                code |= try bits(1)
                let count = huffman.counts[length]
                if code - count < first { return huffman.symbols[index + (code - first)] }
                index += count
                first += count
                first <<= 1
                code <<= 1
            }
            throw InflateError("invalid Huffman code")
        }

        mutating func codes(_ lengths: Huffman, _ distances: Huffman) throws(InflateError) {
            while true {
                let symbol = try decode(lengths)
                if symbol < 256 {
                    guard output.count < limit else { throw InflateError("output larger than the expected \(limit) bytes") }
                    output.append(UInt8(symbol))
                } else if symbol == 256 {
                    return
                } else {
                    let lengthIndex = symbol - 257
                    guard lengthIndex < 29 else { throw InflateError("invalid length symbol \(symbol)") }
                    let length = Inflate.lengthBase[lengthIndex] + (try bits(Inflate.lengthExtra[lengthIndex]))
                    let distanceSymbol = try decode(distances)
                    guard distanceSymbol < 30 else { throw InflateError("invalid distance symbol \(distanceSymbol)") }
                    let distance = Inflate.distanceBase[distanceSymbol] + (try bits(Inflate.distanceExtra[distanceSymbol]))
                    guard distance <= output.count else { throw InflateError("distance \(distance) reaches before the start of the output") }
                    guard output.count + length <= limit else { throw InflateError("output larger than the expected \(limit) bytes") }
                    let start = output.count - distance
                    for offset in 0..<length { output.append(output[start + offset]) }
                }
            }
        }

        mutating func dynamic() throws(InflateError) {
            let literalCount = try bits(5) + 257
            let distanceCount = try bits(5) + 1
            let codeCount = try bits(4) + 4
            guard literalCount <= 286, distanceCount <= 30 else { throw InflateError("too many length or distance codes") }
            var codeLengths = [Int](repeating: 0, count: 19)
            for index in 0..<codeCount { codeLengths[Inflate.codeLengthOrder[index]] = try bits(3) }
            let codeLengthCode = try Huffman(lengths: codeLengths).validated("code-length")
            var lengths: [Int] = []
            let total = literalCount + distanceCount
            while lengths.count < total {
                let symbol = try decode(codeLengthCode)
                if symbol < 16 {
                    lengths.append(symbol)
                    continue
                }
                var repeatValue = 0
                let repeatCount: Int
                switch symbol {
                case 16:
                    guard let previous = lengths.last else { throw InflateError("repeat of a code length with none before it") }
                    repeatValue = previous
                    repeatCount = 3 + (try bits(2))
                case 17: repeatCount = 3 + (try bits(3))
                default: repeatCount = 11 + (try bits(7))
                }
                guard lengths.count + repeatCount <= total else { throw InflateError("code lengths overrun their count") }
                lengths.append(contentsOf: repeatElement(repeatValue, count: repeatCount))
            }
            guard lengths[256] != 0 else { throw InflateError("no end-of-block code") }
            let literals = try Huffman(lengths: Array(lengths[0..<literalCount])).validated("literal/length")
            let distances = try Huffman(lengths: Array(lengths[literalCount...])).validated("distance", allowEmpty: true)
            try codes(literals, distances)
        }
    }

    // The fixed codes of block type 1 (RFC 1951 §3.2.6); the distance code is incomplete by design (30 of 32).
    private static let fixedLengths: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for index in 144..<256 { lengths[index] = 9 }
        for index in 256..<280 { lengths[index] = 7 }
        return Huffman(lengths: lengths)
    }()

    private static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))
}
