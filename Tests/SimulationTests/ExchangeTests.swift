import HCIPackets
import Simulation
import Testing

/// Connection events carry exchanges while they fit (Core v5.4 Vol 6 Part B §4.5.1, §4.5.6), each PDU taking
/// its air time (§2.1, §2.2), so a link's throughput is what the spec's timings allow: measured on virtual time
/// with a peripheral that streams notifications as fast as its controller's buffers (8 × 251, the default)
/// allow, against the formula of docs/link-layer.md.
@Suite struct ExchangeTests {
    /// A throughput point: the PHY (nil: LE 1M as the link starts), the data length, the notification value.
    struct Point: Sendable, CustomTestStringConvertible {
        let name: String
        /// TX_PHYS/RX_PHYS bits of LE Set PHY with PHY_options 2 (S=8), or nil to stay on LE 1M.
        let phy: UInt8?
        /// Whether the peripheral first asks for 251 octets (LE Set Data Length).
        let longPDUs: Bool
        /// The notification's value length: ATT_MTU 23 − 3 at 27 octets, 247 − 3 at 251 (the LL payload is
        /// v + 3 (ATT) + 4 (L2CAP): 27 and 251).
        let value: Int
        /// Exchanges per 30 ms event and bytes per second, worked out by hand (docs/link-layer.md).
        let perEvent: Int
        let bytesPerSecond: Double
        var testDescription: String { name }

        /// With the empty PDU from the central and the data PDU from the peripheral (µs):
        /// - 1M/27: 80 + 150 + 296 + 150 = 676; ⌊30000 / 676⌋ = 44; 44 × 20 B / 30 ms = 29,333 B/s;
        /// - 1M/251: 80 + 150 + 2088 + 150 = 2468; ⌊30000 / 2468⌋ = 12; 12 × 244 B / 30 ms = 97,600 B/s;
        /// - 2M/251: 44 + 150 + 1048 + 150 = 1392; ⌊30000 / 1392⌋ = 21; 21 × 244 B / 30 ms = 170,800 B/s;
        /// - Coded S8/251: 720 + 150 + 16784 + 150 = 17804; ⌊30000 / 17804⌋ = 1; 244 B / 30 ms = 8,133 B/s.
        static let all = [
            Point(name: "1M/27", phy: nil, longPDUs: false, value: 20, perEvent: 44, bytesPerSecond: 880 / 0.03),
            Point(name: "1M/251", phy: nil, longPDUs: true, value: 244, perEvent: 12, bytesPerSecond: 2928 / 0.03),
            Point(name: "2M/251", phy: 0x02, longPDUs: true, value: 244, perEvent: 21, bytesPerSecond: 5124 / 0.03),
            Point(name: "Coded S8/251", phy: 0x04, longPDUs: true, value: 244, perEvent: 1, bytesPerSecond: 244 / 0.03),
        ]
    }

    @Test(arguments: Point.all)
    func notificationsStreamAtTheFormulasRate(point: Point) async throws {
        try await ConnectedPair.with(.standard, recording: true) { pair in
            let peripheral = pair.peripheral, handle = pair.peripheralHandle
            if point.longPDUs {
                let changed = try await peripheral.expect("LE Data Length Change", timeout: .seconds(1)) { event -> UInt16? in
                    if case .hci(.le(.dataLengthChange(handle, let octets, _, _, _))) = event { return octets }
                    return nil
                }
                _ = try await peripheral.send(LESetDataLength(handle: handle, length: .maximum))
                #expect(try await peripheral.wait(for: changed) == 251)
            }
            if let phy = point.phy {
                let updated = try await peripheral.expect("LE PHY Update Complete", timeout: .seconds(1)) { event -> [UInt8]? in
                    if case .hci(.le(.phyUpdateComplete(.success, handle, let tx, let rx))) = event { return [tx, rx] }
                    return nil
                }
                try await peripheral.send(LESetPHY(handle: handle, transmitPHYs: phy, receivePHYs: phy, options: 2))
                let expected: UInt8 = phy == 0x02 ? 2 : 3
                #expect(try await peripheral.wait(for: updated) == [expected, expected])
            }
            // Ten events' worth and one: the first notification of the first event to the first of the eleventh.
            let count = 10 * point.perEvent + 1
            let received = ACLTests.Completed()
            let all = try await pair.central.expect("\(count) notifications", timeout: .seconds(30)) { event -> Bool? in
                guard case .aclPDU(pair.centralHandle, _) = event else { return nil }
                return received.add(1) == count ? true : nil
            }
            for _ in 0..<count { try await peripheral.sendACL(handle: handle, pdu: HostScenarios.pdu(point.value + 3)) }
            _ = try await pair.central.wait(for: all)
            let arrivals = try #require(pair.recorders?.central.received.filter { $0.packet.handle == pair.centralHandle }.suffix(count))
            let first = try #require(arrivals.first), last = try #require(arrivals.last)
            let elapsed = first.at.duration(to: last.at)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = Double((count - 1) * point.value) / seconds
            #expect(abs(rate / point.bytesPerSecond - 1) < 0.05, "\(point.name): \(rate) B/s over \(elapsed), formula \(point.bytesPerSecond) B/s")
        }
    }

    /// Buffers bound throughput: with a single LE buffer the controller has nothing queued when an exchange
    /// ends (the host's next packet follows Number Of Completed Packets), so the event closes and each
    /// notification waits for the next event: one an interval, whatever fits (docs/link-layer.md, Buffers).
    @Test func aSingleBufferCarriesOnePacketAnEvent() async throws {
        var world = SimulatedWorldDescription.standard
        world.controllers[1].leBufferCount = 1
        try await ConnectedPair.with(world, recording: true) { pair in
            let count = 5
            let received = ACLTests.Completed()
            let all = try await pair.central.expect("\(count) notifications", timeout: .seconds(2)) { event -> Bool? in
                guard case .aclPDU(pair.centralHandle, _) = event else { return nil }
                return received.add(1) == count ? true : nil
            }
            for _ in 0..<count { try await pair.peripheral.sendACL(handle: pair.peripheralHandle, pdu: HostScenarios.pdu(23)) }
            _ = try await pair.central.wait(for: all)
            let arrivals = try #require(pair.recorders?.central.received).map(\.at)
            #expect(arrivals.count == count)
            for (earlier, later) in zip(arrivals, arrivals.dropFirst()) {
                #expect(earlier.duration(to: later) == ConnectedPair.interval)
            }
        }
    }

    /// A 251-octet ACL packet at the initial data length of 27 octets goes as ten PDUs (9 × 27 + 8), which the
    /// receiving host gets as ten ACL packets — the start fragment (0b10), then continuations (0b01) — and
    /// reassembles; the sender's host gets Number Of Completed Packets once, when the tenth is acknowledged:
    /// at the end of the tenth exchange, each 296 + 150 + 80 + 150 µs on LE 1M (the last PDU, 8 octets, lasts
    /// (1 + 4 + 2 + 8 + 3) × 8 = 144 µs).
    @Test func aLongPacketIsSentInFragmentsOfTheDataLength() async throws {
        try await ConnectedPair.with(.standard, recording: true) { pair in
            let clock = pair.world.air.clock
            let pdu = HostScenarios.pdu(247, seed: 7)
            let completed = ACLTests.Completed()
            let done = try await pair.central.expect("Number Of Completed Packets", timeout: .seconds(1)) { event -> Int? in
                guard case .hci(.numberOfCompletedPackets(let entries)) = event else { return nil }
                return completed.add(entries.filter { $0.handle == pair.centralHandle }.reduce(0) { $0 + Int($1.count) })
            }
            let whole = try await pair.peripheral.expect("the PDU", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .aclPDU(pair.peripheralHandle, let data) = event { return data }
                return nil
            }
            try await pair.central.sendACL(handle: pair.centralHandle, pdu: pdu)
            #expect(try await pair.peripheral.wait(for: whole) == pdu)
            #expect(try await pair.central.wait(for: done) == 1)
            let doneAt = clock.now
            let fragments = try #require(pair.recorders?.peripheral.received).map(\.packet)
            #expect(fragments.map(\.data.count) == Array(repeating: 27, count: 9) + [8])
            #expect(fragments.map(\.boundary) == [.firstFlushable] + Array(repeating: .continuing, count: 9))
            #expect(fragments.flatMap(\.data) == pdu)
            let arrivals = try #require(pair.recorders?.peripheral.received).map(\.at)
            let exchange = Duration.microseconds(296 + 150 + 80 + 150)
            let first = try #require(arrivals.first)
            for (index, arrival) in arrivals.enumerated().dropLast() {
                #expect(first.duration(to: arrival) == exchange * index)
            }
            // The tenth arrives 9 exchanges in, after its 144 µs; its exchange ends 150 + 80 + 150 µs later.
            let anchor = first.advanced(by: .zero - .microseconds(296))
            #expect(anchor.duration(to: try #require(arrivals.last)) == exchange * 9 + .microseconds(144))
            #expect(anchor.duration(to: doneAt) == exchange * 9 + .microseconds(144 + 150 + 80 + 150))
        }
    }
}
