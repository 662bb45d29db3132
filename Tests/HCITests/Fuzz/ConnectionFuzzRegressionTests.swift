import Testing
import TestSupport
@testable import HCI

/// Found by hci-fuzz `host` (Tests/Fuzz/corpus/host/regression-*): a controller that announced a second link on
/// a handle already open, waits on a link that ended by their deadline, a peer-requested LE Connection Update
/// and an LTK request's answer left queued after its link ended, and one for an unknown handle holding the links.
@Suite("Fuzz regressions: connections")
struct ConnectionFuzzRegressionTests {
    /// LE Connection Complete for handle 0x0040, as btvirt sends it (Core v5.4 Vol 4 Part E §7.7.65.1).
    static let complete = hexBytes("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00")
    static let peer = BDAddress(0x00_AA_01_01_00_42)

    /// A device connected as central to `peer` on handle 0x0040 over a scripted controller.
    private static func connected(commandTimeout: Duration = .seconds(2)) async throws -> (ScriptedController, LEDevice, LEConnection) {
        let controller = try ScriptedController { command, _ in
            command.opcode == .leCreateConnection ? ScriptedController.commandStatus(command.opcode) + complete
                                                  : (ScriptedController.healthy(command) ?? [])
        }
        let device = LEDevice(host: try controller.makeHost(commandTimeout: commandTimeout))
        _ = try await device.start()
        let connection = try await device.connect(to: peer, type: .public)
        return (controller, device, connection)
    }

    /// The second LE Connection Complete for 0x0040 replaced the device's connection: the first was never
    /// ended, so its waiters stayed forever. It is now a recorded HCI violation that ends the first link (its
    /// waiter hears why) before the second opens; the second ends on its Disconnection Complete.
    @Test func aSecondConnectionCompleteOnAnOpenHandleEndsTheFirstLink() async throws {
        let (controller, device, connection) = try await Self.connected()
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
        // The second link is the device's connection on 0x0040 now.
        #expect(await eventually(within: .seconds(2)) { await device.connections[0x0040].map { $0 !== connection } ?? false })
        let second = try #require(await device.connections[0x0040])
        #expect(await second.isConnected)
        // Disconnection Complete, reason 0x13 (Vol 4 Part E §7.7.5).
        let secondEnded = Task { try await second.waitForDisconnection(timeout: .seconds(5)) }
        controller.write(hexBytes("04 05 04 00 40 00 13"))
        #expect(try await secondEnded.value == .remoteUserTerminatedConnection)
        await device.close()
    }

    /// A link whose controller then sent `trigger` after a Command Complete granting 0 credits (Num_HCI_Command_Packets
    /// = 0, Vol 4 Part E §7.7.14: the host sends nothing until a credit comes), once the command it leads to waits in
    /// the queue; commands time out after 30 s.
    private static func queuedBehindZeroCredits(_ trigger: [UInt8], queues opcode: HCIOpcode) async throws
        -> (ScriptedController, LEDevice, LEConnection) {
        let (controller, device, connection) = try await connected(commandTimeout: .seconds(30))
        controller.write(hexBytes("04 0e 03 00 00 00"))  // Command Complete, credit-only (opcode 0x0000), 0 credits
        controller.write(trigger)
        #expect(await eventually(within: .seconds(5)) { await device.host.outstanding.commandOpcodes == [opcode] })
        return (controller, device, connection)
    }

    /// Disconnection Complete for 0x0040, reason 0x13 (Vol 4 Part E §7.7.5): the link ends within 5 s, long before
    /// the queued command's 30 s deadline.
    private static func endsAtOnce(_ connection: LEConnection, _ controller: ScriptedController) async throws {
        let ended = Task { try await connection.waitForDisconnection(timeout: .seconds(5)) }
        controller.write(hexBytes("04 05 04 00 40 00 13"))
        #expect(try await ended.value == .remoteUserTerminatedConnection)
    }

    /// The queue is empty within 5 s of the link's end.
    private static func expectQueueEmptied(_ device: LEDevice) async {
        let settled = await eventually(within: .seconds(5)) { await device.host.outstanding.queuedCommands == 0 }
        let outstanding = await device.host.outstanding
        #expect(settled, "still held after the link ended: \(outstanding)")
    }

    /// A peripheral's Connection Parameter Update Request is applied with LE Connection Update; behind 0 credits that
    /// command waits in the queue. It was awaited inline, so it outlived its link until its 30 s deadline; now the
    /// link's end cancels it and the queue is empty at once.
    @Test func aPeerRequestedUpdateQueuedForACreditEndsWithItsLink() async throws {
        // ACL on 0x0040: L2CAP 12 octets on CID 0x0005, Connection Parameter Update Request (code 0x12, identifier 1):
        // interval 24-40, latency 0, supervision timeout 400 (Vol 3 Part A §4.20).
        let update = hexBytes("02 40 20 10 00 0c 00 05 00 12 01 08 00 18 00 28 00 00 00 90 01")
        let (controller, device, connection) = try await Self.queuedBehindZeroCredits(update, queues: .leConnectionUpdate)
        try await Self.endsAtOnce(connection, controller)
        await Self.expectQueueEmptied(device)
        await device.close()
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
        let (controller, device, connection) = try await Self.queuedBehindZeroCredits(
            Self.keyRequest(handle: 0x0040), queues: .leLongTermKeyRequestNegativeReply)
        try await Self.endsAtOnce(connection, controller)
        await Self.expectQueueEmptied(device)
        #expect(!controller.commands.contains { $0.opcode == .leLongTermKeyRequestNegativeReply }, "sent for a link that had ended")
        await device.close()
    }

    /// An LTK request for a handle with no link (0x0E01, as hci-fuzz sent it) is still answered Negative Reply, but in
    /// the device's own task: queued behind 0 credits it held the follow-up loop, and with it every link's PDUs and
    /// ends, until its deadline. Now the link ends at once and the reply goes when a credit comes.
    @Test func aKeyRequestForAnUnknownHandleDoesNotHoldTheLinks() async throws {
        let (controller, device, connection) = try await Self.queuedBehindZeroCredits(
            Self.keyRequest(handle: 0x0E01), queues: .leLongTermKeyRequestNegativeReply)
        try await Self.endsAtOnce(connection, controller)
        #expect(await device.pendingUnknownKeyRequestAnswers == 1)
        controller.write(hexBytes("04 0e 03 01 00 00"))  // a credit
        // The Negative Reply names the controller's handle (Vol 4 Part E §7.8.26).
        #expect(await eventually(within: .seconds(5)) {
            controller.commands.contains { $0.opcode == .leLongTermKeyRequestNegativeReply && $0.parameters == [0x01, 0x0E] }
        })
        controller.write(ScriptedController.commandComplete(.leLongTermKeyRequestNegativeReply, [0x01, 0x0E]))
        await device.unknownKeyRequestAnswersEnded()
        let outstanding = await device.host.outstanding
        #expect(outstanding.queuedCommands == 0 && outstanding.sentCommands == 0, "\(outstanding)")
        await device.close()
    }

    /// A `waitForDisconnection` that reached its deadline left its waiter on the link, so a loop of
    /// short waits on a long link grew the list without bound.
    @Test func aWaitForDisconnectionThatTimesOutLeavesNoWaiter() async throws {
        let (_, device, connection) = try await Self.connected()
        for _ in 0..<3 {
            await #expect(throws: RoleError.self) { try await connection.waitForDisconnection(timeout: .milliseconds(20)) }
        }
        #expect(await connection.isConnected)
        #expect(await connection.pendingWaitsSummary == "none")
        await device.close()
    }
}
