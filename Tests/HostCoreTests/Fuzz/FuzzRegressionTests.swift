import Testing
@testable import HCIPackets

/// Inputs that crashed `hci-fuzz` (scripts/fuzz/fuzz), kept so the fixes stay fixed.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// The first H4 event packet in `bytes`, decoded.
    private static func decodeEvent(_ bytes: [UInt8]) throws -> HCIEvent {
        var framer = H4Framer()
        let packets = try framer.feed(bytes)
        guard case .event(let packet)? = packets.first else { throw HCIDecodingError("not an event") }
        return try HCIEvent(decoding: packet)
    }

    /// hci-fuzz crash-7678af22e453525455ec8580129f04786ff4146a: control byte 00, then 3E 14 39 92 FF 00 00,
    /// which the harness decodes as an LE Meta event: LE Channel Selection Algorithm with
    /// Channel_Selection_Algorithm 0xFF (reserved). Its summary computed `algorithm + 1` in UInt8 and
    /// trapped on overflow.
    @Test func channelSelectionAlgorithmFFSummaryDoesNotOverflow() throws {
        let fuzzed = try HCIEvent(decoding: HCIEventPacket(code: 0x3E, parameters: [0x14, 0x39, 0x92, 0xFF, 0x00, 0x00]))
        #expect(fuzzed == .le(.channelSelectionAlgorithm(handle: 0x239, algorithm: 0xFF)))
        #expect(fuzzed.summary == "LE Channel Selection Algorithm (handle 0x0239, #256)")

        let framed = try Self.decodeEvent([0x04, 0x3E, 0x04, 0x14, 0x40, 0x00, 0xFF])
        #expect(framed.summary == "LE Channel Selection Algorithm (handle 0x0040, #256)")
    }

    @Test func channelSelectionAlgorithmSummaryForEveryValue() throws {
        for algorithm in UInt8.min...UInt8.max {
            let event = try Self.decodeEvent([0x04, 0x3E, 0x04, 0x14, 0x40, 0x00, algorithm])
            #expect(event.summary.hasSuffix("#\(Int(algorithm) + 1))"))
        }
        #expect(try Self.decodeEvent([0x04, 0x3E, 0x04, 0x14, 0x40, 0x00, 0x01]).summary
                    == "LE Channel Selection Algorithm (handle 0x0040, #2)")
    }
}
