/// A packet of Bumble's `bench` app (bumble/apps/bench.py), the stream format `hil bench`, the simulated
/// accessories and the link-layer suites share, so Bumble's bench can be the peer of either side:
/// RESET (type 0) starts a run; SEQUENCE (type 1) carries flags (bit 0: the last packet), a sequence
/// number and the sender's timestamp in microseconds since its RESET, both 32-bit little-endian, then
/// padding; ACK (type 2) answers the last packet with its flags and sequence number.
///
/// Written from the format's description (a public wire format); the bytes are checked against Bumble's own
/// encoder in the tests.
package enum BenchPacket: Sendable, Hashable {
    case reset
    case sequence(number: UInt32, timestampMicroseconds: UInt32, last: Bool, padding: Int)
    case ack(number: UInt32, last: Bool)

    /// Octets a SEQUENCE packet takes before its padding.
    package static let sequenceHeaderLength = 10

    /// A SEQUENCE packet of `length` octets in all (at least the header's ten).
    package static func sequence(number: UInt32, timestampMicroseconds: UInt32, last: Bool, length: Int) -> BenchPacket {
        .sequence(number: number, timestampMicroseconds: timestampMicroseconds, last: last, padding: max(0, length - sequenceHeaderLength))
    }

    package var encoded: [UInt8] {
        switch self {
        case .reset:
            return [0]
        case .sequence(let number, let timestamp, let last, let padding):
            var bytes: [UInt8] = [1, last ? 1 : 0]
            bytes += Self.littleEndian(number) + Self.littleEndian(timestamp)
            bytes += [UInt8](repeating: 0, count: padding)
            return bytes
        case .ack(let number, let last):
            return [2, last ? 1 : 0] + Self.littleEndian(number)
        }
    }

    /// Decodes a packet; nil for bytes that are none (Bumble's receiver ignores those too).
    package init?(decoding bytes: [UInt8]) {
        guard let type = bytes.first else { return nil }
        switch type {
        case 0:
            self = .reset
        case 1:
            guard bytes.count >= Self.sequenceHeaderLength else { return nil }
            self = .sequence(number: Self.u32(bytes, 2), timestampMicroseconds: Self.u32(bytes, 6), last: bytes[1] & 1 != 0,
                             padding: bytes.count - Self.sequenceHeaderLength)
        case 2:
            guard bytes.count >= 6 else { return nil }
            self = .ack(number: Self.u32(bytes, 2), last: bytes[1] & 1 != 0)
        default:
            return nil
        }
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)]
    }

    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
