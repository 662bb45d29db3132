import Testing

@Test func placeholder_HILTests() { #expect(Bool(true)) }
