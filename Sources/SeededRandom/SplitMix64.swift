/// SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number
/// Generators", OOPSLA 2014): a small seeded random number generator whose
/// sequence depends only on its seed, so a simulated air, a fuzz input or a
/// random test can be replayed from the seed it printed.
///
/// Not for anything secret: the state is the seed plus a counter.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose first output is the mix of `seed` + 0x9E3779B97F4A7C15.
    package init(seed: UInt64) { state = seed }

    /// The next 64 bits of the sequence.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
