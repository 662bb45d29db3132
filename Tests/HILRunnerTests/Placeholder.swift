import Testing

@Test func placeholder_HILRunnerTests() { #expect(Bool(true)) }
