// Hand-written advertising payloads shaped like real devices' air traffic.

enum AdvertisingPayloads {
    /// A Nordic-based thermometer: Flags 0x06, Complete Local Name "Thermo",
    /// complete 16-bit list [180F, 1809], Manufacturer Specific Data 0x0059 + 4 octets.
    static let thermometer: [UInt8] = [
        0x02, 0x01, 0x06,
        0x07, 0x09, 0x54, 0x68, 0x65, 0x72, 0x6D, 0x6F,
        0x05, 0x03, 0x0F, 0x18, 0x09, 0x18,
        0x07, 0xFF, 0x59, 0x00, 0x01, 0x02, 0x03, 0x04,
    ]

    /// An iBeacon: Flags, then Apple manufacturer data 02 15 + proximity UUID,
    /// major 0x0001, minor 0x0002, measured power −59 dBm. 30 octets.
    static let iBeacon: [UInt8] = [
        0x02, 0x01, 0x06,
        0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15,
        0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
        0x00, 0x01, 0x00, 0x02, 0xC5,
    ]

    /// An Eddystone-URL beacon for https://google.com: Flags, complete 16-bit
    /// list [FEAA], Service Data FEAA with frame 0x10, tx −8 dBm, scheme 0x03, "google", ".com".
    static let eddystoneURL: [UInt8] = [
        0x02, 0x01, 0x06,
        0x03, 0x03, 0xAA, 0xFE,
        0x0D, 0x16, 0xAA, 0xFE, 0x10, 0xF8, 0x03, 0x67, 0x6F, 0x6F, 0x67, 0x6C, 0x65, 0x07,
    ]

    /// A scan response: complete 128-bit list [Nordic UART Service],
    /// Shortened Local Name "NUS", Tx Power 0 dBm, Appearance 0x0340 (generic heart rate sensor).
    static let scanResponse: [UInt8] = [
        0x11, 0x07, 0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E,
        0x04, 0x08, 0x4E, 0x55, 0x53,
        0x02, 0x0A, 0x00,
        0x03, 0x19, 0x40, 0x03,
    ]

    /// Legacy advertising data padded to 31 octets with zeros: Flags then the non-significant part.
    static let zeroPadded: [UInt8] = [0x02, 0x01, 0x06] + [UInt8](repeating: 0, count: 28)

    static let all: [[UInt8]] = [thermometer, iBeacon, eddystoneURL, scanResponse]
}

/// SplitMix64: a small seeded generator so the random-input tests are reproducible.
struct SeededAdvertisingGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
