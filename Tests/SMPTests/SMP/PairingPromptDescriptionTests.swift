import Testing
@testable import SMP

/// A prompt reads as the spec's user interface shows its value: six decimal digits, leading zeros kept
/// (Core v5.4 Vol 3 Part H §2.3.5.3: a passkey 000000 to 999999; §2.3.5.6.2: the comparison value is g2 mod 10⁶).
@Suite struct PairingPromptDescriptionTests {
    @Test func valuesAreSixDigitsWithLeadingZeros() {
        #expect(PairingPrompt.displayPasskey(42_519).description == "displays passkey 042519")
        #expect(PairingPrompt.enteredPasskey(0).description == "entered passkey 000000")
        #expect(PairingPrompt.compareNumber(999_999, confirmed: true).description == "compares 999999: confirmed")
        #expect(PairingPrompt.compareNumber(7, confirmed: false).description == "compares 000007: rejected")
    }
}
