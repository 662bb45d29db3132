import Testing

@Test func placeholder_PreflightTests() { #expect(Bool(true)) }
