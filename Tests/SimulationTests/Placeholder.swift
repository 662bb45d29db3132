import Testing

@Test func placeholder_SimulationTests() { #expect(Bool(true)) }
