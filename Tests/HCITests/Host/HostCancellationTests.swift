import Foundation
@testable import HCI
import Testing
import TestSupport

/// Every wait of the host ends at once when its task is cancelled, names what it awaited, and leaves the
/// host usable; an ACL PDU whose first fragment went out is never left half-sent.
@Suite(.timeLimit(.minutes(1))) struct HostCancellationTests {
    static let connectionComplete = hexBytes("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00")

    /// A controller that answers the initialization, connects on LE Create Connection, and leaves
    /// Read Local Name (0x0C14) unanswered until the test answers it.
    static func controller() throws -> ScriptedController {
        try ScriptedController { command, _ in
            switch command.opcode {
            case .leCreateConnection: ScriptedController.commandStatus(command.opcode) + connectionComplete
            case HCIOpcode(rawValue: 0x0C14): []
            default: ScriptedController.healthy(command) ?? []
            }
        }
    }

    /// A host on `controller()`, initialized and connected (handle 0x0040).
    static func connectedHost() async throws -> (ScriptedController, HCIHost) {
        let controller = try Self.controller()
        let host = try controller.makeHost()
        try await host.initialize()
        let connected = try await host.expect("LE Connection Complete", timeout: .seconds(2)) { event -> Bool? in
            if case .hci(.le(.connectionComplete)) = event { return true }
            return nil
        }
        try await host.send(LECreateConnection(peerAddress: try #require(BDAddress("00:AA:01:01:00:42")), peerAddressType: .public))
        _ = try await host.wait(for: connected)
        return (controller, host)
    }

    @Test func aCancelledCommandEndsAtOnceAndItsLateAnswerIsAbsorbed() async throws {
        let controller = try Self.controller()
        let host = try controller.makeHost(commandTimeout: .seconds(20))
        try await host.initialize()
        let readName = HCICommandPacket(opcode: HCIOpcode(rawValue: 0x0C14), parameters: [])
        let clock = ContinuousClock()
        let waiting = Task { try await host.sendRaw(readName) }
        #expect(await eventually(within: .seconds(2)) { controller.commands.contains { $0.opcode.rawValue == 0x0C14 } })
        let start = clock.now
        waiting.cancel()
        let outcome = await waiting.result
        let elapsed = clock.now - start
        guard case .failure(let error) = outcome, let hciError = error as? HCIError, case .cancelled(let awaited, _) = hciError else {
            Issue.record("expected cancelled, got \(outcome)")
            return
        }
        #expect(awaited.contains("Read Local Name") || awaited.contains("0x0C14"), "\(awaited)")
        // Bounded by half the 20 s command deadline it would otherwise have waited out (a loaded 2-core CI start took 5 s for 0.3 s).
        #expect(elapsed < .seconds(10), "cancelled only after \(elapsed) of a 20 s command deadline")
        // The controller answers late: no anomaly, and the next command goes through with its own answer.
        controller.write(ScriptedController.commandComplete(HCIOpcode(rawValue: 0x0C14), [UInt8](repeating: 0x41, count: 248)))
        #expect(try await host.send(ReadBDADDR()).description == "00:AA:01:00:00:42")
        let anomalies = await host.anomalies
        #expect(anomalies.isEmpty, "\(anomalies)")
        await host.close()
    }

    @Test func aCancelledEventWaitEndsAtOnceNamingWhatItAwaited() async throws {
        let controller = try Self.controller()
        let host = try controller.makeHost()
        try await host.initialize()
        let clock = ContinuousClock()
        let waiting = Task {
            try await host.waitFor("an LE Advertising Report nobody sends", timeout: .seconds(30)) { event -> Bool? in
                if case .hci(.le(.advertisingReports)) = event { return true }
                return nil
            }
        }
        #expect(await eventually(within: .seconds(2)) { await host.eventWaiters.contains { $0.continuation != nil } })
        let start = clock.now
        waiting.cancel()
        let outcome = await waiting.result
        #expect(clock.now - start < .seconds(15), "cancelled only after \(clock.now - start) of a 30 s wait")
        guard case .failure(let error) = outcome, case .cancelled(let awaited, _) = error as? HCIError else {
            Issue.record("expected cancelled, got \(outcome)")
            return
        }
        #expect(awaited == "an LE Advertising Report nobody sends")
        await host.close()
    }

    @Test func anACLPDUWhoseDeadlinePassesMidwayStillSendsItsRemainingFragments() async throws {
        let (controller, host) = try await Self.connectedHost()
        // 27-byte buffers × 2: fragments 1 and 2 go at once, fragment 3 waits for a credit past the deadline.
        let pdu = [0x38, 0x00, 0x04, 0x00] + [UInt8](repeating: 0xAB, count: 56)
        await #expect { try await host.sendACL(handle: 0x40, pdu: pdu, timeout: .milliseconds(100)) } throws: { error in
            guard case .aclCreditTimeout(0x40, _) = error as? HCIError else { return false }
            return true
        }
        // A credit returns: the rest of that PDU goes out, so the controller never holds half of it.
        controller.write(ScriptedController.event(0x13, [0x01, 0x40, 0x00, 0x01, 0x00]))
        let fragments = { controller.packets.compactMap { if case .aclData(let packet) = $0 { packet } else { nil } } }
        #expect(await eventually(within: .seconds(2)) { fragments().count == 3 })
        #expect(fragments().map(\.boundary) == [.firstNonFlushable, .continuing, .continuing])
        #expect(fragments().flatMap(\.data) == pdu)
        await host.close()
    }

    @Test func aPDUNotYetBegunIsDroppedWhenItsCallerIsCancelled() async throws {
        let (controller, host) = try await Self.connectedHost()
        // Two PDUs of one fragment take both buffers; the third waits and is cancelled.
        try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x01])
        try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x02])
        let third = Task { try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x03], timeout: .seconds(30)) }
        #expect(await eventually(within: .seconds(2)) { await host.aclFlow.queue.count == 1 })
        third.cancel()
        guard case .failure(let error) = await third.result, case .cancelled = error as? HCIError else {
            Issue.record("the waiting PDU was not cancelled")
            return
        }
        controller.write(ScriptedController.event(0x13, [0x01, 0x40, 0x00, 0x02, 0x00]))
        try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x04])
        let payloads = { controller.packets.compactMap { if case .aclData(let packet) = $0 { packet.data.last } else { nil } } }
        #expect(await eventually(within: .seconds(2)) { payloads().count == 3 })
        #expect(payloads() == [0x01, 0x02, 0x04])
        await host.close()
    }
}
