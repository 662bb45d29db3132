import Testing

@Test func placeholder_DeviceControlTests() { #expect(Bool(true)) }
