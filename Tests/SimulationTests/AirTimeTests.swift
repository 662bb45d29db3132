@testable import Simulation
import Testing

/// The air time of data PDUs against figures worked out by hand from Core v5.4 Vol 6 Part B §2.1 and §2.2.
@Suite struct AirTimeTests {
    /// LE 1M (§2.1, 8 µs per octet): preamble 1, access address 4, header 2, payload, MIC 4 when encrypted, CRC 3.
    /// - empty PDU: (1 + 4 + 2 + 0 + 3) × 8 = 80 µs (no MIC on an empty payload, even encrypted);
    /// - 27 octets: (1 + 4 + 2 + 27 + 3) × 8 = 296 µs; with MIC (1 + 4 + 2 + 27 + 4 + 3) × 8 = 328 µs, the
    ///   initial connMaxTxTime of §4.5.10;
    /// - 251 octets: (1 + 4 + 2 + 251 + 3) × 8 = 2088 µs; with MIC 2120 µs.
    @Test func le1M() {
        #expect(AirTime.pdu(payload: 0, phy: .le1M) == 80)
        #expect(AirTime.pdu(payload: 0, phy: .le1M, encrypted: true) == 80)
        #expect(AirTime.pdu(payload: 27, phy: .le1M) == 296)
        #expect(AirTime.pdu(payload: 27, phy: .le1M, encrypted: true) == 328)
        #expect(AirTime.pdu(payload: 251, phy: .le1M) == 2088)
        #expect(AirTime.pdu(payload: 251, phy: .le1M, encrypted: true) == 2120)
    }

    /// LE 2M (§2.1, 4 µs per octet, a 2-octet preamble):
    /// - empty: (2 + 4 + 2 + 3) × 4 = 44 µs;
    /// - 251 octets: (2 + 4 + 2 + 251 + 3) × 4 = 1048 µs; with MIC (… + 4) × 4 = 1064 µs.
    @Test func le2M() {
        #expect(AirTime.pdu(payload: 0, phy: .le2M) == 44)
        #expect(AirTime.pdu(payload: 251, phy: .le2M) == 1048)
        #expect(AirTime.pdu(payload: 251, phy: .le2M, encrypted: true) == 1064)
    }

    /// LE Coded (§2.2): FEC block 1 is 80 (preamble) + 256 (access address) + 16 (CI) + 24 (TERM1) = 376 µs;
    /// block 2 is header, payload, MIC and CRC at 64 µs per octet and TERM2 24 µs (S=8), or 16 µs and 6 µs (S=2).
    /// - S=8 empty: 376 + (2 + 3) × 64 + 24 = 720 µs;
    /// - S=8 27 octets with MIC: 376 + (2 + 27 + 4 + 3) × 64 + 24 = 2704 µs, the least connEffectiveMaxTxTime on
    ///   LE Coded (§4.5.10);
    /// - S=8 251 octets: 376 + 256 × 64 + 24 = 16784 µs; with MIC 376 + 260 × 64 + 24 = 17040 µs, the largest
    ///   connMaxTxTime;
    /// - S=2 251 octets: 376 + 256 × 16 + 6 = 4478 µs; empty 376 + 5 × 16 + 6 = 462 µs.
    @Test func leCoded() {
        #expect(AirTime.pdu(payload: 0, phy: .leCoded, coding: .s8) == 720)
        #expect(AirTime.pdu(payload: 27, phy: .leCoded, coding: .s8, encrypted: true) == 2704)
        #expect(AirTime.pdu(payload: 251, phy: .leCoded, coding: .s8) == 16784)
        #expect(AirTime.pdu(payload: 251, phy: .leCoded, coding: .s8, encrypted: true) == 17040)
        #expect(AirTime.pdu(payload: 251, phy: .leCoded, coding: .s2) == 4478)
        #expect(AirTime.pdu(payload: 0, phy: .leCoded, coding: .s2) == 462)
    }

    /// The payload a PDU may carry within connEffectiveMaxTxTime (§4.5.10): 328 µs on LE 2M fits
    /// (2 + 4 + 2 + p + 3) × 4 ≤ 328, p ≤ 71; on LE 1M 328 µs fits 31 octets unencrypted ((10 + p) × 8 ≤ 328)
    /// and 27 with MIC.
    @Test func payloadWithinTime() {
        #expect(AirTime.payload(octets: 251, time: 328, phy: .le2M) == 71)
        #expect(AirTime.payload(octets: 251, time: 328, phy: .le1M) == 31)
        #expect(AirTime.payload(octets: 251, time: 328, phy: .le1M, encrypted: true) == 27)
        #expect(AirTime.payload(octets: 27, time: 17040, phy: .leCoded) == 27)
    }

    /// One exchange: central PDU, T_IFS 150 µs, peripheral PDU, T_IFS: an empty PDU and a 251-octet one on
    /// LE 2M take 44 + 150 + 1048 + 150 = 1392 µs.
    @Test func exchange() {
        #expect(AirTime.exchange(central: 44, peripheral: 1048) == 1392)
    }
}
