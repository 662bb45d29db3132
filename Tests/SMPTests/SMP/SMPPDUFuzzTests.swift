@testable import SMP
import SeededRandom
import Testing

/// Random octets at the SMP decoder: never a trap, every refusal carries the reason §3.3 gives, and
/// whatever decodes encodes back to exactly the octets it came from (c1 and f6 take the Pairing
/// Request and Response as sent, so decoding may drop nothing).
@Suite("SMP PDUs on random input")
struct SMPPDUFuzzTests {
    @Test("Random PDUs, mostly of a command's length", arguments: [UInt64(1), 0x5E_C0DE, 0xB1E])
    func randomPDUs(seed: UInt64) async {
        var generator = SplitMix64(seed: seed)
        let lengths = Dictionary(uniqueKeysWithValues: SMPCommandTable.rows.map { ($0.code, $0.parameterLength) })
        var decoded = 0
        for round in 0..<20_000 {
            // Let the other tests of the run have the pool now and then: this loop is pure CPU.
            if round % 1_000 == 0 { await Task.yield() }
            let code = UInt8.random(in: 0...0x11, using: &generator)
            let length = round % 5 == 0 ? Int.random(in: 0...70, using: &generator) : (lengths[code] ?? 1)
            // Every third PDU draws its octets from 0–31, so the few values IO Capability, OOB flag, key size,
            // AddrType and Notification Type accept come up, with the reserved bits of AuthReq and Key Distribution.
            let largest: UInt8 = round % 3 == 0 ? 31 : 255
            var bytes = [code] + (0..<length).map { _ in UInt8.random(in: 0...largest, using: &generator) }
            if round % 50 == 0 { bytes.removeAll() }
            do {
                let pdu = try SMPPDU(decoding: bytes)
                decoded += 1
                #expect(pdu.encoded == bytes, "\(bytes)")
            } catch {
                let known = bytes.first.map { lengths[$0] != nil } ?? true
                #expect(error.reason == (known ? .invalidParameters : .commandNotSupported), "\(bytes): \(error)")
            }
        }
        #expect(decoded > 5_000)
    }

    @Test("Pairing Request and Response with random fields decode exactly when each is in range, and keep every bit",
          arguments: [UInt64(2), 0xFEA7])
    func randomFeatures(seed: UInt64) async {
        var generator = SplitMix64(seed: seed)
        var decoded = 0
        for round in 0..<5_000 {
            if round % 1_000 == 0 { await Task.yield() }
            let io = UInt8.random(in: 0...6, using: &generator), oob = UInt8.random(in: 0...2, using: &generator)
            let size = UInt8.random(in: 5...18, using: &generator)
            let bytes = [UInt8.random(in: 1...2, using: &generator), io, oob, UInt8.random(in: 0...255, using: &generator), size,
                         UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator)]
            // §3.5.1: IO Capability 0x00–0x04, OOB data flag 0x00–0x01, Maximum Encryption Key Size 7–16.
            let valid = io <= 4 && oob <= 1 && (7...16).contains(size)
            do {
                let pdu = try SMPPDU(decoding: bytes)
                decoded += 1
                #expect(valid, "\(bytes) decoded")
                #expect(pdu.encoded == bytes, "\(bytes)")
            } catch {
                #expect(!valid, "\(bytes): \(error)")
                #expect(error.reason == .invalidParameters)
            }
        }
        #expect(decoded > 500)
    }
}
