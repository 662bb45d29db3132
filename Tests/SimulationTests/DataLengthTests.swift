import HCIPackets
import HostCore
import Simulation
import Testing
import TestSupport

/// The Data Length Update procedure as a controller runs it (Core v5.4 Vol 6 Part B §4.5.10, §5.1.9; HCI
/// Vol 4 Part E §7.8.33–§7.8.35, §7.8.46, §7.7.65.7): each direction settles on min(the sender's
/// connMaxTx, the receiver's supported maximum), and both hosts hear LE Data Length Change only when a value
/// changed.
@Suite struct DataLengthTests {
    /// The central supports 251 octets; the peripheral 100 (its longest time: a 100-octet PDU with MIC on LE
    /// Coded S=8, 376 + (2 + 100 + 4 + 3) × 64 + 24 = 7376 µs).
    static let world: SimulatedWorldDescription = {
        var world = SimulatedWorldDescription.standard
        world.controllers[1].maxDataLength = 100
        return world
    }()

    /// Data Length Change values on `host` for `handle`: TX octets, TX time, RX octets, RX time.
    static func expectChange(_ host: HCIHost, _ handle: UInt16, timeout: Duration = .seconds(1)) async throws -> HostCore.Expectation<[UInt16]> {
        try await host.expect("LE Data Length Change", timeout: timeout) { event -> [UInt16]? in
            if case .hci(.le(.dataLengthChange(handle, let txOctets, let txTime, let rxOctets, let rxTime))) = event {
                return [txOctets, txTime, rxOctets, rxTime]
            }
            return nil
        }
    }

    @Test func bothHostsHearTheNegotiatedMinimumAndNothingWhenUnchanged() async throws {
        try await ConnectedPair.with(Self.world) { pair in
            let atCentral = try await Self.expectChange(pair.central, pair.centralHandle)
            let atPeripheral = try await Self.expectChange(pair.peripheral, pair.peripheralHandle)
            #expect(try await pair.central.send(LESetDataLength(handle: pair.centralHandle, length: .maximum)) == pair.centralHandle)
            // Central → peripheral: min(251, 100) octets, min(17040, 7376) µs; the peripheral still sends 27/328.
            #expect(try await pair.central.wait(for: atCentral) == [100, 7376, 27, 328])
            #expect(try await pair.peripheral.wait(for: atPeripheral) == [27, 328, 100, 7376])
            // Asking again for the same changes nothing: no event on either side.
            let again = try await Self.expectChange(pair.central, pair.centralHandle, timeout: ConnectedPair.interval * 5)
            let againPeripheral = try await Self.expectChange(pair.peripheral, pair.peripheralHandle, timeout: ConnectedPair.interval * 5)
            _ = try await pair.central.send(LESetDataLength(handle: pair.centralHandle, length: .maximum))
            #expect(try await HostScenarios.valueOrTimeout(again, on: pair.central) == nil)
            #expect(try await HostScenarios.valueOrTimeout(againPeripheral, on: pair.peripheral) == nil)
        }
    }

    /// A controller that supports only 27 octets on LE 1M (its longest PDU: (1 + 4 + 2 + 27 + 4 + 3) × 8 = 328 µs)
    /// keeps the link at 27 octets, 328 µs: nothing changes, nobody hears Data Length Change, and a 251-octet
    /// packet still crosses in 27-octet PDUs.
    @Test func aControllerCappedAt27KeepsTheLinkAt27() async throws {
        var world = SimulatedWorldDescription.standard
        world.controllers[1].maxDataLength = 27
        world.controllers[1].phys = [.le1M]
        try await ConnectedPair.with(world, recording: true) { pair in
            let changed = try await Self.expectChange(pair.central, pair.centralHandle, timeout: ConnectedPair.interval * 5)
            _ = try await pair.central.send(LESetDataLength(handle: pair.centralHandle, length: .maximum))
            #expect(try await HostScenarios.valueOrTimeout(changed, on: pair.central) == nil)
            let pdu = HostScenarios.pdu(247)
            let whole = try await pair.peripheral.expect("the PDU", timeout: .seconds(1)) { event -> [UInt8]? in
                if case .aclPDU(pair.peripheralHandle, let data) = event { return data }
                return nil
            }
            try await pair.central.sendACL(handle: pair.centralHandle, pdu: pdu)
            #expect(try await pair.peripheral.wait(for: whole) == pdu)
            #expect(try #require(pair.recorders?.peripheral.received).map(\.packet.data.count).max() == 27)
        }
    }

    /// A controller whose suggested default exceeds 27/328 starts the procedure itself when a link forms
    /// (§4.5.10); the read commands give what was written and what the controller supports (§7.8.34, §7.8.46).
    @Test func aSuggestedDefaultStartsTheProcedureOnConnection() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { world, hosts in
            let (central, peripheral) = (hosts[0], hosts[1])
            #expect(try await central.send(LEReadSuggestedDefaultDataLength()) == .initial)
            let maximum = try await peripheral.send(LEReadMaximumDataLength())
            #expect(maximum.transmit == DataLength(octets: 100, time: 7376) && maximum.receive == maximum.transmit)
            _ = try await central.send(LEWriteSuggestedDefaultDataLength(length: DataLength(octets: 200, time: 2000)))
            #expect(try await central.send(LEReadSuggestedDefaultDataLength()) == DataLength(octets: 200, time: 2000))
            let status = try await HostScenarios.status(of: LEWriteSuggestedDefaultDataLength(length: DataLength(octets: 26, time: 328)), on: central)
            #expect(status == .invalidHCICommandParameters)
            let changed = try await central.expect("LE Data Length Change", timeout: .seconds(1)) { event -> [UInt16]? in
                if case .hci(.le(.dataLengthChange(_, let txOctets, let txTime, let rxOctets, let rxTime))) = event {
                    return [txOctets, txTime, rxOctets, rxTime]
                }
                return nil
            }
            guard let target = await peripheral.controllerInfo?.address else { throw TestFailure("peripheral not initialized") }
            _ = try await HostScenarios.connect(central: central, peripheral: peripheral, target: target, connection: ConnectedPair.fastLink)
            #expect(try await central.wait(for: changed) == [100, 2000, 27, 328])
        }
    }
}
