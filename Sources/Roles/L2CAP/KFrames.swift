/// K-frames, the PDUs of an LE credit-based channel (Core v5.4 Vol 3 Part A §3.4): an SDU goes out as one
/// or more K-frame payloads; the first starts with the 2-octet SDU length (§3.4.2).
enum KFrames {
    /// The K-frame payloads carrying `sdu` to a peer whose MPS is `mps` (§7.3): the first holds the SDU
    /// length and at most MPS − 2 octets of the SDU, each later one at most MPS octets.
    static func segment(_ sdu: [UInt8], mps: Int) -> [[UInt8]] {
        let firstRoom = max(mps - 2, 0)
        var first: [UInt8] = [UInt8(truncatingIfNeeded: sdu.count), UInt8(truncatingIfNeeded: sdu.count >> 8)]
        first.append(contentsOf: sdu.prefix(firstRoom))
        var frames = [first]
        var offset = min(firstRoom, sdu.count)
        while offset < sdu.count {
            let end = min(offset + max(mps, 1), sdu.count)
            frames.append(Array(sdu[offset..<end]))
            offset = end
        }
        return frames
    }
}

/// Puts SDUs back together from K-frame payloads, with the receiver's checks of Core v5.4 Vol 3 Part A
/// §3.4.3: a K-frame longer than our MPS, an SDU length beyond our MTU, or K-frames holding more than the
/// SDU length each mean the channel must be disconnected (the error says which).
struct SDUReassembler {
    let mtu: Int
    let mps: Int
    /// The SDU under way: its announced length and the octets so far.
    private var partial: (length: Int, bytes: [UInt8])?

    init(mtu: Int, mps: Int) {
        self.mtu = mtu
        self.mps = mps
    }

    /// Whether an SDU is part-way reassembled.
    var isPartial: Bool { partial != nil }

    /// Adds one K-frame payload; returns the SDU it completes, or nil when more are to come.
    mutating func add(_ payload: [UInt8]) throws(KFrameViolation) -> [UInt8]? {
        guard payload.count <= mps else {
            throw KFrameViolation("K-frame of \(payload.count) octets exceeds our MPS \(mps) (Vol 3 Part A §3.4.3)")
        }
        var current: (length: Int, bytes: [UInt8])
        if let partial {
            current = partial
            current.bytes.append(contentsOf: payload)
        } else {
            guard payload.count >= 2 else {
                throw KFrameViolation("first K-frame of an SDU has \(payload.count) octet(s), no 2-octet SDU length (Vol 3 Part A §3.4.2)")
            }
            let length = Int(payload[0]) | Int(payload[1]) << 8
            guard length <= mtu else {
                throw KFrameViolation("SDU length \(length) exceeds our MTU \(mtu) (Vol 3 Part A §3.4.3)")
            }
            current = (length, Array(payload.dropFirst(2)))
        }
        guard current.bytes.count <= current.length else {
            partial = nil
            throw KFrameViolation("K-frames hold \(current.bytes.count) octets for an SDU of \(current.length) (Vol 3 Part A §3.4.3)")
        }
        if current.bytes.count == current.length {
            partial = nil
            return current.bytes
        }
        partial = current
        return nil
    }
}

/// What a peer's K-frame broke, in words that cite the spec.
struct KFrameViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
