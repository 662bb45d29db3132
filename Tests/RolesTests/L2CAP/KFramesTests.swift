import Testing
@testable import Roles

/// Segmentation and reassembly of K-frames (Core v5.4 Vol 3 Part A §3.4.2–3.4.3), without a link.
@Suite struct KFramesTests {
    @Test func theFirstKFrameCarriesTheSDULength() {
        let sdu = Array(UInt8(0)..<UInt8(200))
        let frames = KFrames.segment(sdu, mps: 64)
        #expect(frames.map(\.count) == [64, 64, 64, 10])
        #expect(Array(frames[0].prefix(2)) == [200, 0])
        #expect(Array(frames.joined().dropFirst(2)) == sdu)
        #expect(KFrames.segment([], mps: 23) == [[0, 0]])
        #expect(KFrames.segment(Array(repeating: 1, count: 21), mps: 23).map(\.count) == [23])
        #expect(KFrames.segment(Array(repeating: 1, count: 22), mps: 23).map(\.count) == [23, 1])
    }

    @Test func reassemblyGivesBackTheSDU() throws {
        let sdu = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        var reassembler = SDUReassembler(mtu: 300, mps: 64)
        var out: [[UInt8]] = []
        for frame in KFrames.segment(sdu, mps: 64) {
            if let whole = try reassembler.add(frame) { out.append(whole) }
        }
        #expect(out == [sdu])
        #expect(!reassembler.isPartial)
    }

    @Test func theReceiversChecksNameTheRuleBroken() {
        var reassembler = SDUReassembler(mtu: 30, mps: 23)
        #expect(throws: KFrameViolation.self) { try reassembler.add(Array(repeating: 0, count: 24)) }
        #expect(throws: KFrameViolation.self) { try reassembler.add([31, 0]) }
        #expect(throws: KFrameViolation.self) { try reassembler.add([7]) }
        #expect(throws: Never.self) { _ = try reassembler.add([4, 0, 1, 2]) }
        // Two octets announced left; three come.
        do {
            _ = try reassembler.add([3, 4, 5])
            Issue.record("an overlong SDU was accepted")
        } catch {
            #expect(error.description == "K-frames hold 5 octets for an SDU of 4 (Vol 3 Part A §3.4.3)")
        }
    }
}
