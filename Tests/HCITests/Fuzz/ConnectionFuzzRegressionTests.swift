import Testing
import TestSupport
@testable import HCI

/// Found by hci-fuzz `host` (Tests/Fuzz/corpus/host/regression-duplicate-connection-complete): a controller
/// that announced a second link on a handle already open, and waits on a link that ended by their deadline.
@Suite("Fuzz regressions: connections")
struct ConnectionFuzzRegressionTests {
    /// LE Connection Complete for handle 0x0040, as btvirt sends it (Core v5.4 Vol 4 Part E §7.7.65.1).
    static let complete = hexBytes("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00")
    static let peer = BDAddress(0x00_AA_01_01_00_42)

    /// A device connected as central to `peer` on handle 0x0040 over a scripted controller.
    private static func connected() async throws -> (ScriptedController, LEDevice, LEConnection) {
        let controller = try ScriptedController { command, _ in
            command.opcode == .leCreateConnection ? ScriptedController.commandStatus(command.opcode) + complete
                                                  : (ScriptedController.healthy(command) ?? [])
        }
        let device = LEDevice(host: try controller.makeHost())
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
