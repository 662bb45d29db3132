import Testing
import Throughput
import EventLoops

/// What a receiver counts: octets, packets, missing sequence numbers, the window, the last packet's ACK,
/// and each packet's delay against the sender's timestamp.
@Suite struct BenchMeterTests {
    /// An instant of a stepped virtual clock: the meter only subtracts instants.
    let start = VirtualTime.stepped().now

    func packet(_ number: UInt32, at microseconds: UInt32, last: Bool = false, length: Int = 20) -> [UInt8] {
        BenchPacket.sequence(number: number, timestampMicroseconds: microseconds, last: last, length: length).encoded
    }

    @Test("Counts octets and packets; a missing run of numbers counts each number, a repeat once")
    func countsGaps() {
        var meter = BenchMeter(window: nil)
        for (number, offset) in [(0, 0), (1, 10), (4, 20), (4, 30), (5, 40)] as [(UInt32, Int)] {
            #expect(meter.received(packet(number, at: UInt32(offset * 1_000)), at: start + .milliseconds(offset)) == .more)
        }
        #expect(meter.packets == 5 && meter.bytes == 100)
        #expect(meter.gaps == 3, "2 and 3 missing, 4 repeated")
    }

    @Test("RESET starts over; the last packet is answered with its ACK and fixes the span")
    func resetAndLast() {
        var meter = BenchMeter(window: nil)
        _ = meter.received(packet(9, at: 0), at: start)
        #expect(meter.received(BenchPacket.reset.encoded, at: start + .milliseconds(1)) == .more)
        #expect(meter.packets == 0)
        _ = meter.received(packet(0, at: 0), at: start + .milliseconds(10))
        #expect(meter.received(packet(1, at: 250_000, last: true), at: start + .milliseconds(260)) == .last(.ack(number: 1, last: true)))
        #expect(meter.seconds(endedAt: start + .seconds(9)) == 0.25)
        #expect(meter.gaps == 0)
    }

    @Test("A window ends the count; a stall inside it counts as time with nothing moved")
    func window() {
        var meter = BenchMeter(window: .seconds(1))
        _ = meter.received(packet(0, at: 0), at: start)
        _ = meter.received(packet(1, at: 1_000), at: start + .milliseconds(1))
        #expect(meter.received(packet(2, at: 2_000), at: start + .milliseconds(1_001)) == .windowEnded)
        #expect(meter.packets == 2)
        #expect(meter.seconds(endedAt: start + .seconds(5)) == 1)
        #expect(meter.seconds(endedAt: start + .milliseconds(500)) == 0.5)
    }

    @Test("Delay is receipt against the sender's timestamp, both from the first packet: a queue that grows shows")
    func delays() {
        var meter = BenchMeter(window: nil)
        // Sent every 10 ms; received 0, 10, 30, 50 ms after the first: delays 0, 0, 10, 20 ms.
        for (number, sent, received) in [(0, 0, 0), (1, 10, 10), (2, 20, 30), (3, 30, 50)] as [(UInt32, UInt32, Int)] {
            _ = meter.received(packet(number, at: sent * 1_000), at: start + .milliseconds(received))
        }
        let latency = meter.latencyPercentiles
        #expect(abs(latency.p50 - 5) < 1e-9)
        #expect(abs(latency.p95 - 18.5) < 1e-9)
    }
}
