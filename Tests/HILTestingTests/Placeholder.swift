import Testing

@Test func placeholder_HILTestingTests() { #expect(Bool(true)) }
