import Foundation
import HCIPackets

/// A characteristic whose value the accessory changes on its own and notifies (a profile's `notify` entry):
/// every `intervalMilliseconds` the next value of a counter, a waveform or a file's lines is written to the
/// database and sent to each central that subscribed to its notifications — a heart rate that moves, a
/// temperature that drifts, a recorded trace played back.
package struct NotificationSource: Sendable, Hashable {
    /// The characteristic's UUID (its value handle is looked up in the database).
    package var characteristic: BluetoothUUID
    package var intervalMilliseconds: Int
    /// Octets sent before each number (a Heart Rate Measurement's Flags, say); not used by `values`.
    package var prefix: [UInt8]
    package var kind: Kind

    package init(characteristic: BluetoothUUID, intervalMilliseconds: Int, prefix: [UInt8] = [], kind: Kind) {
        self.characteristic = characteristic
        self.intervalMilliseconds = intervalMilliseconds
        self.prefix = prefix
        self.kind = kind
    }

    /// Where the values come from.
    package enum Kind: Sendable, Hashable {
        /// `start`, `start + step`, … as a little-endian unsigned number of `octets` octets (wrapping).
        case counter(start: Int, step: Int, octets: Int)
        /// A periodic wave between `minimum` and `maximum`, sampled at each notification's time, as a
        /// little-endian unsigned number of `octets` octets.
        case waveform(Shape, periodMilliseconds: Int, minimum: Int, maximum: Int, octets: Int)
        /// A file's values, one per line (hex octets), in order and again from the first.
        case values([[UInt8]])
    }

    /// The waveforms a source can follow.
    package enum Shape: String, Sendable, Hashable, CaseIterable {
        case sine, triangle, square, sawtooth
    }

    /// The value of the notification number `index` (from 0), sent `milliseconds` after the source started.
    package func value(_ index: Int, atMilliseconds milliseconds: Double) -> [UInt8] {
        switch kind {
        case .counter(let start, let step, let octets):
            return prefix + Self.littleEndian(start &+ step &* index, octets: octets)
        case .waveform(let shape, let period, let minimum, let maximum, let octets):
            let phase = milliseconds.truncatingRemainder(dividingBy: Double(period)) / Double(period)
            let level: Double = switch shape {
            case .sine: (1 - cos(2 * .pi * phase)) / 2
            case .triangle: phase < 0.5 ? 2 * phase : 2 - 2 * phase
            case .square: phase < 0.5 ? 0 : 1
            case .sawtooth: phase
            }
            let number = Double(minimum) + level * Double(maximum - minimum)
            return prefix + Self.littleEndian(Int(number.rounded()), octets: octets)
        case .values(let values):
            return values.isEmpty ? [] : values[index % values.count]
        }
    }

    /// `number` as `octets` little-endian octets (its low bits).
    static func littleEndian(_ number: Int, octets: Int) -> [UInt8] {
        (0..<octets).map { UInt8(truncatingIfNeeded: number >> (8 * $0)) }
    }
}
