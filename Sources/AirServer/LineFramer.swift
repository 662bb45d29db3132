/// Splits a line protocol's input into lines (ended by `\n`, an `\r` before it dropped), holding at most
/// `maximumLineLength` bytes of a line not yet ended: what a client sends can never grow the server's
/// memory past that, however it sends it.
struct LineFramer {
    /// One thing the input said.
    enum Piece: Equatable {
        case line(String)
        /// A line grew past `maximumLineLength`; nothing after it is framed.
        case overlong
    }

    let maximumLineLength: Int
    private var partial: [UInt8] = []
    private(set) var isOverlong = false

    init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
    }

    /// The lines `bytes` completes, in order, and `.overlong` last once a line is longer than the limit.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Piece] {
        guard !isOverlong else { return [] }
        var pieces: [Piece] = []
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            partial.append(contentsOf: bytes[start..<newline])
            start = newline + 1
            if partial.last == 0x0D { partial.removeLast() }
            guard partial.count <= maximumLineLength else { return pieces + [overlong()] }
            pieces.append(.line(String(decoding: partial, as: UTF8.self)))
            partial.removeAll(keepingCapacity: true)
        }
        // Only as much of an unended line as can still be a line is kept.
        guard partial.count + (bytes.endIndex - start) <= maximumLineLength + 1 else { return pieces + [overlong()] }
        partial.append(contentsOf: bytes[start...])
        return pieces
    }

    private mutating func overlong() -> Piece {
        isOverlong = true
        partial = []
        return .overlong
    }
}
