import SeededRandom

extension SplitMix64 {
    /// The low octet of the next output: one random byte of a generated or mutated input.
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
