import Testing
import TestSupport
@testable import HCIPackets
@testable import EventLoops
@testable import Roles

/// Found by hci-fuzz `host` (Tests/Fuzz/corpus/host/regression-*): a controller that announced a second link on
/// a handle already open, waits on a link that ended by their deadline, a peer-requested LE Connection Update
/// and an LTK request's answer left queued after its link ended, and one for an unknown handle holding the links.
///
/// The host keeps its deadlines on a stepped clock only the test moves: "the link ends at once, long before the
/// queued command's 30 s deadline" is proven with the clock still at its start and that deadline still armed.
@Suite("Fuzz regressions: connections")
struct ConnectionFuzzRegressionTests {
    /// LE Connection Complete for handle 0x0040, as btvirt sends it (Core v5.4 Vol 4 Part E §7.7.65.1).
    static let complete = hexBytes("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00")
    static let peer = BDAddress(0x00_AA_01_01_00_42)

    /// A device connected as central to `peer` on handle 0x0040 over a scripted controller, its deadlines on `clock`.
    private static func connected(commandTimeout: Duration = .seconds(2), clock: LoopClock) async throws
        -> (ScriptedController, LEDevice, LEConnection) {
        let controller = try ScriptedController { command, _ in
            command.opcode == .leCreateConnection ? ScriptedController.commandStatus(command.opcode) + complete
                                                  : (ScriptedController.healthy(command) ?? [])
        }
        let device = LEDevice(host: try controller.makeHost(commandTimeout: commandTimeout, clock: clock))
        _ = try await device.start()
        let connection = try await device.connect(to: peer, type: .public)
        return (controller, device, connection)
    }

    /// The second LE Connection Complete for 0x0040 replaced the device's connection: the first was never
    /// ended, so its waiters stayed forever. It is now a recorded HCI violation that ends the first link (its
    /// waiter hears why) before the second opens; the second ends on its Disconnection Complete.
    @Test func aSecondConnectionCompleteOnAnOpenHandleEndsTheFirstLink() async throws {
        try await withSteppedTime { time in
            let (controller, device, connection) = try await Self.connected(clock: time.clock)
            let waiting = Task { try await connection.waitForDisconnection(timeout: .seconds(5)) }
            controller.write(Self.complete)
            #expect(try await waiting.value == .connectionTerminatedByLocalHost)
            #expect(await connection.pendingWaits == 0)
            let note = await connection.endedNote
            #expect(note?.contains("which was still open") == true, "\(String(describing: note))")
            let violation = try #require(await device.host.protocolViolations.first)
            #expect(violation.layer == .hci)
            #expect(violation.what.contains("handle 0x0040, which was still open"))
            #expect(violation.bytes == Array(Self.complete.dropFirst(3)))
            // The second link is the device's connection on 0x0040 now: the device opened it as the host handled
            // that LE Connection Complete, on the host's loop, which has done all it had to do once settled.
            await time.settle()
            let second = try #require(await device.connections[0x0040])
            #expect(second !== connection)
            #expect(await second.isConnected)
            // Disconnection Complete, reason 0x13 (Vol 4 Part E §7.7.5).
            let secondEnded = Task { try await second.waitForDisconnection(timeout: .seconds(5)) }
            controller.write(hexBytes("04 05 04 00 40 00 13"))
            #expect(try await secondEnded.value == .remoteUserTerminatedConnection)
            await device.close()
        }
    }

    /// A link whose controller then sent `trigger` after a Command Complete granting 0 credits (Num_HCI_Command_Packets
    /// = 0, Vol 4 Part E §7.7.14: the host sends nothing until a credit comes), once the command it leads to waits in
    /// the queue with its 30 s deadline armed on `time`, and the instant the clock stands at (until the test moves it).
    private static func queuedBehindZeroCredits(_ trigger: [UInt8], queues opcode: HCIOpcode, time: VirtualTime) async throws
        -> (ScriptedController, LEDevice, LEConnection, start: ContinuousClock.Instant) {
        let (controller, device, connection) = try await connected(commandTimeout: .seconds(30), clock: time.clock)
        let start = time.now
        controller.write(hexBytes("04 0e 03 00 00 00"))  // Command Complete, credit-only (opcode 0x0000), 0 credits
        controller.write(trigger)
        // The only deadline the trigger arms is that of the command it leads to, which waits in the queue.
        #expect(await time.nextDeadline() == start + .seconds(30))
        #expect(await device.host.outstanding.commandOpcodes == [opcode])
        return (controller, device, connection, start)
    }

    /// Disconnection Complete for 0x0040, reason 0x13 (Vol 4 Part E §7.7.5): the link ends with the clock still at
    /// `start`, so nothing waited for the queued command's 30 s deadline (a wait for it would never have ended).
    private static func endsAtOnce(_ connection: LEConnection, _ controller: ScriptedController, time: VirtualTime,
                                   start: ContinuousClock.Instant) async throws {
        let ended = Task { try await connection.waitForDisconnection(timeout: .seconds(5)) }
        controller.write(hexBytes("04 05 04 00 40 00 13"))
        #expect(try await ended.value == .remoteUserTerminatedConnection)
        #expect(time.now == start)
    }

    /// The queue is empty once the host's loop has handled the link's end, with the clock still at `start`.
    private static func expectQueueEmptied(_ device: LEDevice, time: VirtualTime, start: ContinuousClock.Instant) async {
        await time.settle()
        let outstanding = await device.host.outstanding
        #expect(outstanding.queuedCommands == 0, "still held after the link ended: \(outstanding)")
        #expect(time.now == start)
    }

    /// A peripheral's Connection Parameter Update Request is applied with LE Connection Update; behind 0 credits that
    /// command waits in the queue. It was awaited inline, so it outlived its link until its 30 s deadline; now the
    /// link's end cancels it and the queue is empty at once.
    @Test func aPeerRequestedUpdateQueuedForACreditEndsWithItsLink() async throws {
        // ACL on 0x0040: L2CAP 12 octets on CID 0x0005, Connection Parameter Update Request (code 0x12, identifier 1):
        // interval 24-40, latency 0, supervision timeout 400 (Vol 3 Part A §4.20).
        let update = hexBytes("02 40 20 10 00 0c 00 05 00 12 01 08 00 18 00 28 00 00 00 90 01")
        try await withSteppedTime { time in
            let (controller, device, connection, start) = try await Self.queuedBehindZeroCredits(update, queues: .leConnectionUpdate, time: time)
            try await Self.endsAtOnce(connection, controller, time: time, start: start)
            await Self.expectQueueEmptied(device, time: time, start: start)
            await device.close()
        }
    }

    /// HCI_LE_Long_Term_Key_Request for `handle` with Random_Number 0 and EDIV 0 (Core v5.4 Vol 4 Part E §7.7.65.5).
    static func keyRequest(handle: UInt16) -> [UInt8] {
        [0x04, 0x3e, 0x0d, 0x05, UInt8(handle & 0xFF), UInt8(handle >> 8)] + [UInt8](repeating: 0, count: 10)
    }

    /// The controller's LTK request for a link with no pairing and no bond is answered Negative Reply; behind 0
    /// credits the reply waits in the queue. It was awaited in the device's follow-up loop, so the link's
    /// Disconnection Complete waited behind it for its 30 s deadline; now it is the link's own task, which the
    /// link's end cancels.
    @Test func aKeyRequestAnswerQueuedForACreditEndsWithItsLink() async throws {
        try await withSteppedTime { time in
            let (controller, device, connection, start) = try await Self.queuedBehindZeroCredits(
                Self.keyRequest(handle: 0x0040), queues: .leLongTermKeyRequestNegativeReply, time: time)
            try await Self.endsAtOnce(connection, controller, time: time, start: start)
            await Self.expectQueueEmptied(device, time: time, start: start)
            #expect(!controller.commands.contains { $0.opcode == .leLongTermKeyRequestNegativeReply }, "sent for a link that had ended")
            await device.close()
        }
    }

    /// An LTK request for a handle with no link (0x0E01, as hci-fuzz sent it) is still answered Negative Reply, but in
    /// the device's own task: queued behind 0 credits it held the follow-up loop, and with it every link's PDUs and
    /// ends, until its deadline. Now the link ends at once and the reply goes when a credit comes.
    @Test func aKeyRequestForAnUnknownHandleDoesNotHoldTheLinks() async throws {
        try await withSteppedTime { time in
            let (controller, device, connection, start) = try await Self.queuedBehindZeroCredits(
                Self.keyRequest(handle: 0x0E01), queues: .leLongTermKeyRequestNegativeReply, time: time)
            try await Self.endsAtOnce(connection, controller, time: time, start: start)
            #expect(await device.pendingUnknownKeyRequestAnswers == 1)
            // The reply still waits for a credit, its deadline armed at its instant: the link did not wait for it.
            #expect(await time.nextDeadline() == start + .seconds(30))
            #expect(await device.host.outstanding.commandOpcodes == [.leLongTermKeyRequestNegativeReply])
            controller.write(hexBytes("04 0e 03 01 00 00"))  // a credit
            // The Negative Reply names the controller's handle (Vol 4 Part E §7.8.26).
            let reply = await controller.command { $0.opcode == .leLongTermKeyRequestNegativeReply }
            #expect(reply?.parameters == [0x01, 0x0E])
            controller.write(ScriptedController.commandComplete(.leLongTermKeyRequestNegativeReply, [0x01, 0x0E]))
            await device.unknownKeyRequestAnswersEnded()
            let outstanding = await device.host.outstanding
            #expect(outstanding.queuedCommands == 0 && outstanding.sentCommands == 0, "\(outstanding)")
            #expect(time.now == start)
            await device.close()
        }
    }

    /// A `waitForDisconnection` that reached its deadline left its waiter on the link, so a loop of
    /// short waits on a long link grew the list without bound.
    @Test func aWaitForDisconnectionThatTimesOutLeavesNoWaiter() async throws {
        try await withSteppedTime { time in
            let (_, device, connection) = try await Self.connected(clock: time.clock)
            for _ in 0..<3 {
                let began = time.now
                let waiting = Task { try await connection.waitForDisconnection(timeout: .milliseconds(20)) }
                #expect(await time.nextDeadline() == began + .milliseconds(20))
                await time.advance(to: began + .milliseconds(20) - .nanoseconds(1))
                #expect(await connection.pendingWaits == 1, "the wait ended before its deadline")
                await time.advance(by: .nanoseconds(1))
                await #expect { try await waiting.value } throws: { error in
                    guard case .timeout(_, let timeout) = error as? RoleError else { return false }
                    return timeout == .milliseconds(20)
                }
            }
            #expect(await connection.isConnected)
            #expect(await connection.pendingWaitsSummary == "none")
            await device.close()
        }
    }
}
