@testable import HCIPackets
@testable import EventLoops
@testable import HostCore
import Testing
import TestSupport

/// Every wait of the host ends at once when its task is cancelled, names what it awaited, and leaves the
/// host usable; an ACL PDU whose first fragment went out is never left half-sent.
///
/// The host keeps its deadlines on a stepped clock that only the test moves: "at once" is "with the clock
/// still at the instant the wait began", and a deadline the test checks fires at exactly its instant.
@Suite struct HostCancellationTests {
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

    /// A host on `controller()` with its deadlines on `clock`, initialized and connected (handle 0x0040).
    static func connectedHost(clock: LoopClock) async throws -> (ScriptedController, HCIHost) {
        let controller = try Self.controller()
        let host = try controller.makeHost(clock: clock)
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
        try await withSteppedTime { time in
            let controller = try Self.controller()
            let host = try controller.makeHost(commandTimeout: .seconds(20), clock: time.clock)
            try await host.initialize()
            let readName = HCICommandPacket(opcode: HCIOpcode(rawValue: 0x0C14), parameters: [])
            let start = time.now
            let waiting = Task { try await host.sendRaw(readName) }
            #expect(await controller.command(HCIOpcode(rawValue: 0x0C14)) != nil)
            waiting.cancel()
            let outcome = await waiting.result
            guard case .failure(let error) = outcome, let hciError = error as? HCIError, case .cancelled(let awaited, let waited) = hciError else {
                Issue.record("expected cancelled, got \(outcome)")
                return
            }
            #expect(awaited.contains("Read Local Name") || awaited.contains("0x0C14"), "\(awaited)")
            // It ended with the clock where it stood when the command was sent: nothing waited for the 20 s
            // command deadline, which stays armed at its instant for the answer that may still come.
            #expect(waited == .zero, "cancelled only after \(waited) of a 20 s command deadline")
            #expect(time.now == start)
            #expect(await time.nextDeadline() == start + .seconds(20))
            // The controller answers late: no anomaly, and the next command goes through with its own answer.
            controller.write(ScriptedController.commandComplete(HCIOpcode(rawValue: 0x0C14), [UInt8](repeating: 0x41, count: 248)))
            #expect(try await host.send(ReadBDADDR()).description == "00:AA:01:00:00:42")
            let anomalies = await host.anomalies
            #expect(anomalies.isEmpty, "\(anomalies)")
            await host.close()
        }
    }

    @Test func aCancelledEventWaitEndsAtOnceNamingWhatItAwaited() async throws {
        try await withSteppedTime { time in
            let controller = try Self.controller()
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            let start = time.now
            let waiting = Task {
                try await host.waitFor("an LE Advertising Report nobody sends", timeout: .seconds(30)) { event -> Bool? in
                    if case .hci(.le(.advertisingReports)) = event { return true }
                    return nil
                }
            }
            // The wait is registered, its deadline 30 s from when it began, and its caller suspended.
            #expect(await time.nextDeadline() == start + .seconds(30))
            #expect(await host.eventWaiters.contains { $0.continuation != nil })
            waiting.cancel()
            let outcome = await waiting.result
            guard case .failure(let error) = outcome, case .cancelled(let awaited, let waited) = error as? HCIError else {
                Issue.record("expected cancelled, got \(outcome)")
                return
            }
            #expect(awaited == "an LE Advertising Report nobody sends")
            // At the cancellation, with the clock where it stood: not at the 30 s deadline.
            #expect(waited == .zero, "cancelled only after \(waited) of a 30 s wait")
            #expect(time.now == start)
            #expect(await host.eventWaiters.isEmpty)
            await host.close()
        }
    }

    @Test func anACLPDUWhoseDeadlinePassesMidwayStillSendsItsRemainingFragments() async throws {
        try await withSteppedTime { time in
            let (controller, host) = try await Self.connectedHost(clock: time.clock)
            // 27-byte buffers × 2: fragments 1 and 2 go at once, fragment 3 waits for a credit past the deadline.
            let pdu = [0x38, 0x00, 0x04, 0x00] + [UInt8](repeating: 0xAB, count: 56)
            let start = time.now
            let sending = Task { try await host.sendACL(handle: 0x40, pdu: pdu, timeout: .milliseconds(100)) }
            #expect(await time.nextDeadline() == start + .milliseconds(100))
            await time.advance(to: start + .milliseconds(100) - .nanoseconds(1))
            #expect(await host.aclFlow.queue.first?.continuation != nil, "its caller gave up before the deadline")
            await time.advance(by: .nanoseconds(1))
            await #expect { try await sending.value } throws: { error in
                guard case .aclCreditTimeout(0x40, .milliseconds(100)) = error as? HCIError else { return false }
                return true
            }
            // Its caller is gone, but the third fragment keeps its place.
            #expect(await host.aclFlow.queue.first?.fragments.count == 1)
            // A credit returns: the rest of that PDU goes out, so the controller never holds half of it.
            controller.write(ScriptedController.event(0x13, [0x01, 0x40, 0x00, 0x01, 0x00]))
            let fragments = ScriptedController.acl(await controller.packets { ScriptedController.acl($0).count >= 3 })
            #expect(fragments.map(\.boundary) == [.firstNonFlushable, .continuing, .continuing])
            #expect(fragments.flatMap(\.data) == pdu)
            await host.close()
        }
    }

    @Test func aPDUNotYetBegunIsDroppedWhenItsCallerIsCancelled() async throws {
        try await withSteppedTime { time in
            let (controller, host) = try await Self.connectedHost(clock: time.clock)
            // Two PDUs of one fragment take both buffers; the third waits and is cancelled.
            try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x01])
            try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x02])
            let start = time.now
            let third = Task { try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x03], timeout: .seconds(30)) }
            // Queued for a buffer, its 30 s deadline armed.
            #expect(await time.nextDeadline() == start + .seconds(30))
            #expect(await host.aclFlow.queue.count == 1)
            third.cancel()
            guard case .failure(let error) = await third.result, case .cancelled = error as? HCIError else {
                Issue.record("the waiting PDU was not cancelled")
                return
            }
            #expect(await host.aclFlow.queue.isEmpty)
            controller.write(ScriptedController.event(0x13, [0x01, 0x40, 0x00, 0x02, 0x00]))
            try await host.sendACL(handle: 0x40, pdu: [0x01, 0x00, 0x04, 0x00, 0x04])
            let payloads = ScriptedController.acl(await controller.packets { ScriptedController.acl($0).count >= 3 }).map { $0.data.last }
            #expect(payloads == [0x01, 0x02, 0x04])
            await host.close()
        }
    }
}
