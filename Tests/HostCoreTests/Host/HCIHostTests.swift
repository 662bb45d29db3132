import Foundation
import Testing
import TestSupport
@testable import HCIPackets
@testable import HostCore

/// The host actor against a scripted controller on a real socket pair: completions, deadlines,
/// closes, garbage and the adapter-state rule.
///
/// The controller answers from its own thread, so the host keeps its deadlines on a stepped clock
/// (`withSteppedTime`): time moves only when a test advances it, so no deadline fires early on a loaded
/// machine, and the deadlines a test checks fire at exactly their instant.
@Suite struct HCIHostTests {
    /// Writes a credit-only Command Complete granting `credits` (opcode 0x0000, Core v5.4 Vol 4 Part E
    /// §7.7.14) and returns once the host has handled it.
    static func grant(_ credits: UInt8, to host: HCIHost, from controller: ScriptedController) async throws {
        let granted = try await host.expect("a credit-only Command Complete", timeout: .seconds(5)) { event -> Bool? in
            if case .hci(.commandComplete(_, let opcode, _)) = event, opcode.rawValue == 0 { return true }
            return nil
        }
        controller.write(ScriptedController.event(0x0E, [credits, 0x00, 0x00]))
        _ = try await host.wait(for: granted)
    }

    @Test func initializeBringsTheAdapterToPoweredOn() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in ScriptedController.healthy(command) ?? [] }
            let host = try controller.makeHost(clock: time.clock)
            #expect(await host.state == .unknown)
            let info = try await host.initialize()
            #expect(await host.state == .poweredOn)
            #expect(info.address.description == "00:AA:01:00:00:42")
            #expect(info.manufacturer.rawValue == 0x0059)
            #expect(info.leACLBufferLength == 27)
            #expect(controller.commands.first?.opcode == .reset)
            await host.close()
        }
    }

    @Test func silentControllerFailsWithTheOpcodeAndTheDeadline() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in
                command.opcode == .leReadMaximumAdvertisingDataLength ? [] : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            let start = time.now
            let sending = Task { try await host.send(LEReadMaximumAdvertisingDataLength(), timeout: .milliseconds(150)) }
            // The command reached the controller, its deadline 150 ms from when it was sent.
            #expect(await controller.command(.leReadMaximumAdvertisingDataLength) != nil)
            #expect(await time.nextDeadline() == start + .milliseconds(150))
            await time.advance(to: start + .milliseconds(150) - .nanoseconds(1))
            #expect(await host.sentCommands.map(\.packet.opcode) == [.leReadMaximumAdvertisingDataLength], "failed before its deadline")
            await time.advance(by: .nanoseconds(1))
            #expect(await host.sentCommands.isEmpty, "still waiting at its deadline")
            switch await sending.result {
            case .success:
                Issue.record("a silent controller answered")
            case .failure(let error):
                guard let error = error as? HCIError, case .commandTimeout(let opcode, let timeout, let sent) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(opcode == .leReadMaximumAdvertisingDataLength)
                #expect(timeout == .milliseconds(150))
                #expect(sent)
                #expect(error.description.contains("0x203A LE Read Maximum Advertising Data Length"))
                #expect(error.description.contains("150"))
            }
            // The host is not wedged: the next command goes out and completes.
            _ = try await host.send(ReadLocalVersionInformation())
            await host.close()
        }
    }

    @Test func peerClosingMidCommandFailsEveryPendingWaitAtOnce() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, controller in
                if command.opcode == .leReadMaximumAdvertisingDataLength { controller.close(); return [] }
                return ScriptedController.healthy(command) ?? []
            }
            let host = try controller.makeHost(commandTimeout: .seconds(10), clock: time.clock)
            try await host.initialize()
            let waiter = try await host.expect("a Disconnection Complete that never comes", timeout: .seconds(10)) { event -> Int? in
                if case .hci(.disconnectionComplete) = event { return 1 }
                return nil
            }
            let start = time.now
            await #expect { try await host.send(LEReadMaximumAdvertisingDataLength()) } throws: { error in
                guard let error = error as? HCIError, case .transportClosed(let reason) = error else { return false }
                return reason.kind == .closedByPeer
            }
            await #expect(throws: HCIError.self) { try await host.wait(for: waiter) }
            // At the close, not at the waiter's or the command's 10 s deadline: the clock never moved, so no
            // deadline could fire (a wait for one would never have ended).
            #expect(time.now == start)
            #expect(await host.state == .poweredOff)
            await #expect(throws: HCIError.self) { try await host.send(ReadBDADDR()) }
        }
    }

    @Test func garbageBytesCloseTheTransportWithAFramingError() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in
                command.opcode == .leReadMaximumAdvertisingDataLength ? [0x09, 0x01, 0x02] : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            do throws(HCIError) {
                _ = try await host.send(LEReadMaximumAdvertisingDataLength())
                Issue.record("garbage was accepted")
            } catch {
                guard case .transportClosed(let reason) = error else { Issue.record("\(error)"); return }
                #expect(reason.kind == .framing)
                #expect(reason.description.contains("0x09"))
            }
            controller.close()
        }
    }

    @Test func commandCompleteForAnUnsentOpcodeIsAnAnomalyNotACrash() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in
                if command.opcode == .readBDADDR {
                    // First a completion for LE Create Connection Cancel, which nobody sent, then the real one.
                    return ScriptedController.commandComplete(.leCreateConnectionCancel, status: 0x0C)
                        + (ScriptedController.healthy(command) ?? [])
                }
                return ScriptedController.healthy(command) ?? []
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            let address = try await host.send(ReadBDADDR())
            #expect(address.description == "00:AA:01:00:00:42")
            let anomalies = await host.anomalies
            #expect(anomalies.contains { $0.contains("LE Create Connection Cancel") })
            await host.close()
        }
    }

    @Test func nonZeroStatusNamesTheStatus() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in
                command.opcode == .leSetScanEnable ? ScriptedController.commandComplete(command.opcode, status: 0x0C)
                                                   : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            do throws(HCIError) {
                try await host.send(LESetScanEnable(true))
                Issue.record("failure status ignored")
            } catch {
                #expect(error.description == "0x200C LE Set Scan Enable failed: 0x0C Command Disallowed")
            }
            await host.close()
        }
    }

    @Test func commandsWaitForCredits() async throws {
        try await withSteppedTime { time in
            // Credits 0 after Reset: the next command must wait for a credit-only Command Complete (opcode 0).
            let controller = try ScriptedController { command, _ in ScriptedController.healthy(command) ?? [] }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            // Grant zero credits, then send: nothing may go out until a credit arrives.
            try await Self.grant(0, to: host, from: controller)
            #expect(await host.commandCredits == 0)
            let sentBefore = controller.commands.count
            let start = time.now
            async let address = host.send(ReadBDADDR())
            // Queued, not sent: the host holds it, its 2 s deadline armed, until a credit comes.
            #expect(await time.nextDeadline() == start + .seconds(2))
            #expect(await host.commandQueue.count == 1)
            #expect(controller.commands.count == sentBefore)
            controller.write(ScriptedController.event(0x0E, [0x01, 0x00, 0x00]))
            #expect(try await address.description == "00:AA:01:00:00:42")
            await host.close()
        }
    }

    @Test func creditStarvedCommandSaysItWasNeverSent() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in ScriptedController.healthy(command) ?? [] }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            try await Self.grant(0, to: host, from: controller)
            let start = time.now
            let sending = Task { try await host.send(ReadBDADDR(), timeout: .milliseconds(100)) }
            // Queued for a credit, its deadline 100 ms from the send.
            #expect(await time.nextDeadline() == start + .milliseconds(100))
            await time.advance(to: start + .milliseconds(100) - .nanoseconds(1))
            #expect(await host.commandQueue.count == 1, "failed before its deadline")
            await time.advance(by: .nanoseconds(1))
            #expect(await host.commandQueue.isEmpty, "still queued at its deadline")
            switch await sending.result {
            case .success:
                Issue.record("sent without credit")
            case .failure(let error):
                guard case .commandTimeout(let opcode, let timeout, let sent) = error as? HCIError else { Issue.record("\(error)"); return }
                #expect(opcode == .readBDADDR)
                #expect(timeout == .milliseconds(100))
                #expect(!sent)
            }
            await host.close()
        }
    }

    @Test func commandsOtherThanResetAndReadsNeedPoweredOn() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in
                command.opcode.ogf == 0x3F ? ScriptedController.commandComplete(command.opcode, [0x01]) : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            await #expect { try await host.send(LESetScanEnable(true)) } throws: { error in
                guard let error = error as? HCIError, case .notPoweredOn(let opcode, let state) = error else { return false }
                return opcode == .leSetScanEnable && state == .unknown
            }
            // Reads are allowed before initialization.
            #expect(try await host.send(ReadBDADDR()).description == "00:AA:01:00:00:42")
            // So are vendor-specific commands (OGF 0x3F): a driver's setup, such as a firmware download.
            let vendor = HCIOpcode(ogf: 0x3F, ocf: 0x6D)
            #expect(try await host.sendRaw(HCICommandPacket(opcode: vendor, parameters: [])) == [0x01])
            await host.close()
        }
    }

    @Test func hardwareErrorFailsPendingCommandsAndLeavesPoweredOn() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { command, _ in
                command.opcode == .leReadMaximumAdvertisingDataLength ? ScriptedController.event(0x10, [0x03]) : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            await #expect { try await host.send(LEReadMaximumAdvertisingDataLength()) } throws: { error in
                guard let error = error as? HCIError, case .hardwareError(0x03) = error else { return false }
                return true
            }
            #expect(await host.state == .unknown)
            // Recovery: a Reset brings it back.
            try await host.initialize()
            #expect(await host.state == .poweredOn)
            await host.close()
        }
    }

    @Test func connectionTableFollowsEventsAndResetClearsItSilently() async throws {
        try await withSteppedTime { time in
            let complete = hexBytes("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00")
            let controller = try ScriptedController { command, _ in
                command.opcode == .leCreateConnection ? ScriptedController.commandStatus(command.opcode) + complete
                                                      : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            let events = await host.events()
            let peer = try #require(BDAddress("00:AA:01:01:00:42"))
            let connected = try await host.expect("LE Connection Complete", timeout: .seconds(2)) { event -> UInt16? in
                if case .hci(.le(.connectionComplete(let c))) = event { return c.handle }
                return nil
            }
            try await host.send(LECreateConnection(peerAddress: peer, peerAddressType: .public))
            #expect(try await host.wait(for: connected) == 0x0040)
            #expect(await host.connections[0x0040]?.peerAddress == peer)
            try await host.initialize()
            #expect(await host.connections.isEmpty)
            var sawCleared = false
            for await event in events {
                if case .connectionsCleared(let handles, let why) = event {
                    #expect(handles == [0x0040])
                    #expect(why.contains("Reset"))
                    sawCleared = true
                    break
                }
            }
            #expect(sawCleared)
            await host.close()
        }
    }

    @Test func aclIsFragmentedToTheBufferLengthAndPacedByCredits() async throws {
        try await withSteppedTime { time in
            let complete = hexBytes("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00")
            let controller = try ScriptedController { command, _ in
                command.opcode == .leCreateConnection ? ScriptedController.commandStatus(command.opcode) + complete
                                                      : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            let peer = try #require(BDAddress("00:AA:01:01:00:42"))
            let connected = try await host.expect("LE Connection Complete", timeout: .seconds(2)) { event -> Bool? in
                if case .hci(.le(.connectionComplete)) = event { return true }
                return nil
            }
            try await host.send(LECreateConnection(peerAddress: peer, peerAddressType: .public))
            _ = try await host.wait(for: connected)
            // 60-byte L2CAP PDU, 27-byte buffers × 2: three fragments, the third only after a completion.
            let pdu = [0x38, 0x00, 0x04, 0x00] + [UInt8](repeating: 0xAB, count: 56)
            async let sent: Void = host.sendACL(handle: 0x40, pdu: pdu)
            // Two buffers: two fragments go (in the host's one turn that queues the PDU), the third waits in
            // the host for a completion.
            let two = ScriptedController.acl(await controller.packets { ScriptedController.acl($0).count >= 2 })
            #expect(two.count == 2)
            #expect(await host.aclFlow.queue.first?.fragments.count == 1)
            #expect(controller.aclPackets.count == 2)
            controller.write(ScriptedController.event(0x13, [0x01, 0x40, 0x00, 0x01, 0x00]))
            try await sent
            let acl = ScriptedController.acl(await controller.packets { ScriptedController.acl($0).count >= 3 })
            #expect(acl.map(\.data.count) == [27, 27, 6])
            #expect(acl.map(\.boundary) == [.firstNonFlushable, .continuing, .continuing])
            #expect(acl.flatMap(\.data) == pdu)
            await host.close()
        }
    }

    @Test func incomingACLFragmentsAreReassembled() async throws {
        try await withSteppedTime { time in
            let complete = hexBytes("04 3e 13 01 00 40 00 00 00 42 00 01 01 aa 00 18 00 00 00 2a 00 00")
            let controller = try ScriptedController { command, _ in
                command.opcode == .leCreateConnection ? ScriptedController.commandStatus(command.opcode) + complete
                                                      : (ScriptedController.healthy(command) ?? [])
            }
            let host = try controller.makeHost(clock: time.clock)
            try await host.initialize()
            let peer = try #require(BDAddress("00:AA:01:01:00:42"))
            let connected = try await host.expect("LE Connection Complete", timeout: .seconds(2)) { event -> Bool? in
                if case .hci(.le(.connectionComplete)) = event { return true }
                return nil
            }
            let pduArrived = try await host.expect("an L2CAP PDU on 0x0040", timeout: .seconds(2)) { event -> [UInt8]? in
                if case .aclPDU(0x40, let data) = event { return data }
                return nil
            }
            try await host.send(LECreateConnection(peerAddress: peer, peerAddressType: .public))
            _ = try await host.wait(for: connected)
            #expect(await host.connections[0x0040] != nil)
            controller.write(hexBytes("02 40 20 05 00 05 00 04 00 0a"))   // start: L2CAP length 5, ATT CID, 1 byte
            controller.write(hexBytes("02 40 10 04 00 01 02 03 04"))       // continuation: 4 more
            #expect(try await host.wait(for: pduArrived) == hexBytes("05 00 04 00 0a 01 02 03 04"))
            await host.close()
        }
    }
}
