import Testing

@Test func placeholder_HCITests() { #expect(Bool(true)) }
