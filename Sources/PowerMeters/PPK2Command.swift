/// A command to Nordic's Power Profiler Kit II over its USB CDC ACM serial port: an opcode octet and its
/// arguments, as the nRF Connect Power Profiler and ppk2-api send them. The PPK2 answers only `metadata`
/// (a text ending in "END") and, once `startSampling` is sent, a stream of 4-octet samples.
package enum PPK2Command: Equatable, Sendable {
    /// GET_META_DATA (0x19): the calibration text (`PPK2Metadata`).
    case metadata
    /// SET_POWER_MODE (0x11): measure the current of a supply of its own (`.ampere`, 1) or supply the device
    /// under test itself from the PPK2's regulator (`.source`, 2).
    case mode(PPK2Mode)
    /// REGULATOR_SET (0x0D): the regulator's voltage in millivolts, sent as two octets most significant first
    /// (800 mV is 0x03 0x20). The PPK2 takes 800 to 5000 mV.
    case regulator(millivolts: Int)
    /// DEVICE_RUNNING_SET (0x0C): the DUT's supply on (1) or off (0) — in source mode a power switch.
    case devicePower(on: Bool)
    /// AVERAGE_START (0x06): start the sample stream (100,000 samples a second).
    case startSampling
    /// AVERAGE_STOP (0x07): stop it.
    case stopSampling
    /// RESET (0x20): restart the PPK2's firmware.
    case reset

    /// The regulator's range.
    package static let regulatorRange = 800...5000

    /// Clamped as the PPK2 (and every client) clamps: the regulator cannot leave its range.
    private static func clamped(_ millivolts: Int) -> Int {
        min(max(millivolts, regulatorRange.lowerBound), regulatorRange.upperBound)
    }

    private static func bigEndian(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// The octets sent on the serial port.
    package var octets: [UInt8] {
        switch self {
        case .metadata: [0x19]
        case .mode(let mode): [0x11, mode == .ampere ? 1 : 2]
        case .regulator(let millivolts): [0x0D] + Self.bigEndian(Self.clamped(millivolts))
        case .devicePower(let on): [0x0C, on ? 1 : 0]
        case .startSampling: [0x06]
        case .stopSampling: [0x07]
        case .reset: [0x20]
        }
    }
}

/// How a PPK2 is wired: as an ammeter in series with the device's own supply, or as the device's supply.
package enum PPK2Mode: String, Sendable, CaseIterable {
    case ampere
    case source
}
