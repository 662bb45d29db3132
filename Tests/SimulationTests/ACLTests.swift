import HCIPackets
import Simulation
import Synchronization
import Testing

/// ACL data crosses the link at connection events, fragmented to the controller's 27-byte LE buffers,
/// in order, with Number Of Completed Packets once each fragment is sent.
@Suite struct ACLTests {
    final class Completed: Sendable {
        let count = Mutex(0)
        func add(_ n: Int) -> Int { count.withLock { $0 += n; return $0 } }
    }

    @Test(arguments: ["central", "peripheral"])
    func fragmentedPDUsArriveWholeAndInOrderWithCompletedPackets(sender: String) async throws {
        try await ConnectedPair.with { pair in
            let (from, to) = sender == "central" ? (pair.central, pair.peripheral) : (pair.peripheral, pair.central)
            let (fromHandle, toHandle) = sender == "central" ? (pair.centralHandle, pair.peripheralHandle)
                                                             : (pair.peripheralHandle, pair.centralHandle)
            let first = HostScenarios.pdu(300, seed: 1)   // 304 bytes: 12 fragments of ≤ 27
            let second = HostScenarios.pdu(40, seed: 2)   // 44 bytes: 2 fragments
            let completed = Completed()
            let allCompleted = try await from.expect("Number Of Completed Packets for 14 fragments", timeout: .seconds(2)) { event -> Int? in
                guard case .hci(.numberOfCompletedPackets(let entries)) = event else { return nil }
                let total = completed.add(entries.filter { $0.handle == fromHandle }.reduce(0) { $0 + Int($1.count) })
                return total >= 14 ? total : nil
            }
            let received = Mutex<[[UInt8]]>([])
            let both = try await to.expect("two PDUs", timeout: .seconds(2)) { event -> [[UInt8]]? in
                guard case .aclPDU(toHandle, let data) = event else { return nil }
                let all = received.withLock { $0.append(data); return $0 }
                return all.count == 2 ? all : nil
            }
            try await from.sendACL(handle: fromHandle, pdu: first)
            try await from.sendACL(handle: fromHandle, pdu: second)
            #expect(try await to.wait(for: both) == [first, second])
            #expect(try await from.wait(for: allCompleted) == 14)
            let stats = await pair.world.air.statistics()
            #expect(stats.aclBuffersInUse == 0)
        }
    }

    /// A host that ignores the buffer size it was given gets Data Buffer Overflow, not a crash.
    @Test func anOversizedFragmentOverflowsTheBuffer() async throws {
        try await ConnectedPair.with { pair in
            let transport = try #require(pair.central.transport as? SimulatedTransport)
            let overflow = try await pair.central.expect("Data Buffer Overflow", timeout: .seconds(1)) { event -> UInt8? in
                if case .hci(.dataBufferOverflow(let linkType)) = event { return linkType }
                return nil
            }
            let oversized = ACLDataPacket(handle: pair.centralHandle, boundary: .firstNonFlushable, data: HostScenarios.pdu(40))
            try transport.write(HCIPacket.aclData(oversized).h4Bytes)
            #expect(try await pair.central.wait(for: overflow) == 0x01)
        }
    }

    /// Data queued when the link ends frees its buffers: the host can use every buffer afterwards.
    @Test func aDisconnectReturnsTheBuffersOfUnsentData() async throws {
        try await ConnectedPair.with { pair in
            // Disconnect first (LL_TERMINATE_IND goes at the next event), then queue data behind it.
            let ended = try await pair.central.expect("Disconnection Complete", timeout: .seconds(2)) { event -> Bool? in
                if case .hci(.disconnectionComplete) = event { return true }
                return nil
            }
            try await pair.peripheral.send(Disconnect(handle: pair.peripheralHandle))
            try? await pair.central.sendACL(handle: pair.centralHandle, pdu: HostScenarios.pdu(90))
            _ = try await pair.central.wait(for: ended)
            #expect(await pair.world.air.statistics().aclBuffersInUse == 0)
            #expect(await pair.central.connections.isEmpty)
        }
    }
}
