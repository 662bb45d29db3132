import HCIPackets
import HostCore
import Testing
import TestSupport
@testable import Roles

/// LE credit-based channels (Core v5.4 Vol 3 Part A §3.4, §4.22–4.24, §10.1) between two of our own devices on
/// a simulated world on virtual time: opening and accepting, segmentation and reassembly, credits, the
/// receiver's checks, closing from either side and the link's end.
@Suite struct LECreditBasedChannelTests {
    static let accepted = LECreditBasedChannelParameters(mtu: 512, mps: 64, credits: 8)
    static let opened = LECreditBasedChannelParameters(mtu: 512, mps: 100, credits: 8)
    /// 300 octets no MPS here divides: 0x00, 0x01, … wrapping.
    static let sdu = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }

    @Test func openedChannelCarriesSDUsLargerThanMPSBothWays() async throws {
        try await LinkedDevices.with { devices in
            let (central, peripheral) = try await devices.openChannel(accepted: Self.accepted, opened: Self.opened)
            #expect(central.spsm == 0x0080 && peripheral.spsm == 0x0080)
            #expect(central.peerCID == peripheral.localCID && peripheral.peerCID == central.localCID)
            #expect(L2CAPChannelID.leDynamic.contains(central.localCID) && L2CAPChannelID.leDynamic.contains(peripheral.localCID))
            #expect(central.peerMTU == 512 && central.peerMPS == 64 && peripheral.peerMPS == 100)
            #expect(await central.credits == 8)
            #expect(await peripheral.credits == 8)

            // 300 octets over MPS 64: 62 + 64 + 64 + 64 + 46, five K-frames, five credits.
            try await central.send(Self.sdu)
            #expect(await central.credits == 3)
            #expect(try await peripheral.receive() == Self.sdu)
            // Taking the SDU gave its five credits back: a Flow Control Credit Ind, which reaches the central within
            // a connection interval (the air carries PDUs in their own time).
            let interval = Duration.microseconds(1250 * Int64(await devices.centralLink.interval))
            try await Task.sleep(for: interval, clock: devices.clock)
            #expect(await central.credits == 8)
            try await central.send([0xAB])
            #expect(await central.credits == 7)
            #expect(try await peripheral.receive() == [0xAB])
            // The other way: MPS 100, 98 + 100 + 100 + 2.
            try await peripheral.send(Self.sdu.reversed())
            #expect(try await central.receive() == Self.sdu.reversed())
            #expect(await devices.centralLink.anomalies.isEmpty)
            #expect(await devices.peripheralLink.anomalies.isEmpty)
        }
    }

    @Test func aRequestForAnSPSMNobodyListensOnIsRefusedByName() async throws {
        try await LinkedDevices.with { devices in
            let error = await #expect(throws: RoleError.self) {
                try await devices.centralLink.openChannel(spsm: 0x0081, timeout: .seconds(2))
            }
            guard case .channelRefused(0x0081, .spsmNotSupported)? = error else { throw TestFailure("not refused by result: \(String(describing: error))") }
            #expect(error?.description == "LE credit-based connection to SPSM 0x0081 refused: 0x0002 SPSM not supported")
            // The CID went back: the next channel takes the first dynamic CID.
            let (central, _) = try await devices.openChannel(accepted: Self.accepted, opened: Self.opened)
            #expect(central.localCID == 0x0040)
        }
    }

    /// One credit: the second SDU waits for the Flow Control Credit Ind the receiver sends when it takes the
    /// first, and goes at the instant that indication reaches the sender.
    @Test func aSenderWithoutCreditsWaitsExactlyUntilCreditsCome() async throws {
        try await LinkedDevices.with { devices in
            let clock = devices.clock
            let (central, peripheral) = try await devices.openChannel(
                accepted: LECreditBasedChannelParameters(mtu: 512, mps: 64, credits: 1), opened: Self.opened)
            try await central.send([1, 2, 3])
            #expect(await central.credits == 0)
            let handle = devices.centralLink.handle
            let creditArrives = try await devices.central.host.expect("a Flow Control Credit Ind", timeout: .seconds(5)) { event -> ContinuousClock.Instant? in
                // L2CAP length (2), CID 0x0005 (2), code 0x16.
                if case .aclPDU(handle, let pdu) = event, pdu.count > 4, pdu[2] == 0x05, pdu[3] == 0, pdu[4] == 0x16 { return clock.now }
                return nil
            }
            let second = Task(executorPreference: clock.taskExecutor) { () async throws -> ContinuousClock.Instant in
                try await central.send([4, 5, 6], timeout: .seconds(5))
                return clock.now
            }
            try await Task.sleep(for: .seconds(2), clock: clock)
            #expect(await central.credits == 0)
            #expect(try await peripheral.receive() == [1, 2, 3])
            let arrived = try await devices.central.host.wait(for: creditArrives)
            let sent = try await second.value
            #expect(sent == arrived)
            #expect(try await peripheral.receive() == [4, 5, 6])
        }
    }

    @Test func aSendWithNoCreditsFailsAtItsDeadline() async throws {
        try await LinkedDevices.with { devices in
            let clock = devices.clock
            let (central, _) = try await devices.openChannel(accepted: LECreditBasedChannelParameters(mtu: 512, mps: 64, credits: 0), opened: Self.opened)
            let started = clock.now
            let error = await #expect(throws: RoleError.self) { try await central.send(Self.sdu, timeout: .seconds(3)) }
            #expect(started.duration(to: clock.now) == .seconds(3))
            #expect(error?.description == "no Flow Control Credit Ind for channel 0x0040 (0 of 5 K-frames of a 300-octet SDU sent, no credits left) within 3.00 s")
            // Nothing went out, so the channel is still open.
            #expect(await central.isOpen)
        }
    }

    /// An SDU length beyond our MTU (§3.4.3): the receiver records the violation and disconnects the channel.
    @Test func anSDUBeyondOurMTUClosesTheChannel() async throws {
        try await LinkedDevices.with { devices in
            let (central, peripheral) = try await devices.openChannel(accepted: LECreditBasedChannelParameters(mtu: 30, mps: 64, credits: 4), opened: Self.opened)
            // Our own send refuses it; a misbehaving peer's K-frame is written raw: SDU length 100, 10 octets.
            await #expect(throws: RoleError.self) { try await central.send(Array(repeating: 0, count: 31)) }
            let frame = [100, 0] + Array(repeating: UInt8(0x55), count: 10)
            try await devices.central.host.sendACL(handle: devices.centralLink.handle, pdu: L2CAPFrame(channel: central.peerCID, payload: frame).encoded)
            let error = await #expect(throws: RoleError.self) { try await peripheral.receive(timeout: .seconds(1)) }
            #expect(error?.description.contains("SDU length 100 exceeds our MTU 30") == true)
            #expect(await devices.peripheral.host.protocolViolations.first?.description.contains("SDU length 100 exceeds our MTU 30") == true)
            // The peripheral's Disconnection Request closes the central's end.
            let closed = await #expect(throws: RoleError.self) { try await central.receive(timeout: .seconds(1)) }
            #expect(closed?.description == "channel 0x0040 is closed: closed by the peer (Disconnection Request)")
        }
    }

    @Test func aKFrameBeyondOurMPSClosesTheChannel() async throws {
        try await LinkedDevices.with { devices in
            let (central, peripheral) = try await devices.openChannel(accepted: LECreditBasedChannelParameters(mtu: 512, mps: 23, credits: 4), opened: Self.opened)
            let frame = [40, 0] + Array(repeating: UInt8(0x55), count: 40)
            try await devices.central.host.sendACL(handle: devices.centralLink.handle, pdu: L2CAPFrame(channel: central.peerCID, payload: frame).encoded)
            let error = await #expect(throws: RoleError.self) { try await peripheral.receive(timeout: .seconds(1)) }
            #expect(error?.description.contains("K-frame of 42 octets exceeds our MPS 23") == true)
            let closed = await #expect(throws: RoleError.self) { try await central.receive(timeout: .seconds(1)) }
            #expect(closed?.description.contains("closed by the peer") == true)
        }
    }

    @Test func eitherSideCloses() async throws {
        try await LinkedDevices.with { devices in
            let (central, peripheral) = try await devices.openChannel(accepted: Self.accepted, opened: Self.opened)
            try await central.close(timeout: .seconds(1))
            #expect(await central.closure == .local)
            let error = await #expect(throws: RoleError.self) { try await peripheral.receive(timeout: .seconds(1)) }
            #expect(error?.description == "channel 0x\(hex4(peripheral.localCID)) is closed: closed by the peer (Disconnection Request)")

            let (again, accepting) = try await devices.openChannel(spsm: 0x0082, accepted: Self.accepted, opened: Self.opened)
            #expect(again.localCID == central.localCID, "the closed channel's CID is free again")
            try await accepting.close(timeout: .seconds(1))
            await #expect(throws: RoleError.self) { try await again.receive(timeout: .seconds(1)) }
            #expect(await again.closure == .peer)
            // Sending on a closed channel fails at once.
            await #expect(throws: RoleError.self) { try await again.send([1]) }
            #expect(await devices.centralLink.anomalies.isEmpty)
            #expect(await devices.peripheralLink.anomalies.isEmpty)
        }
    }

    /// The link's end closes every channel: a receive and a send waiting for credits both fail with the
    /// link's reason.
    @Test func theLinksEndEndsItsChannels() async throws {
        try await LinkedDevices.with { devices in
            let (central, peripheral) = try await devices.openChannel(accepted: LECreditBasedChannelParameters(mtu: 512, mps: 64, credits: 0), opened: Self.opened)
            let receiving = Task(executorPreference: devices.clock.taskExecutor) { try await peripheral.receive(timeout: .seconds(10)) }
            let sending = Task(executorPreference: devices.clock.taskExecutor) { try await central.send([1, 2, 3], timeout: .seconds(10)) }
            try await Task.sleep(for: .milliseconds(100), clock: devices.clock)
            try await devices.centralLink.disconnect()
            let sendError = await #expect(throws: RoleError.self) { try await sending.value }
            #expect(sendError?.description == "connection 0x\(hex4(devices.centralLink.handle)) ended: \(HCIStatus.connectionTerminatedByLocalHost)")
            let receiveError = await #expect(throws: RoleError.self) { try await receiving.value }
            #expect(receiveError?.description == "connection 0x\(hex4(devices.peripheralLink.handle)) ended: \(HCIStatus.remoteUserTerminatedConnection)")
            #expect(await central.closure == .linkEnded(.connectionTerminatedByLocalHost))
        }
    }
}

extension LECreditBasedChannelTests {
    /// A send waiting for credits ends when its task is cancelled, at that instant, naming what it awaited.
    @Test func aCancelledSendEndsAtOnce() async throws {
        try await LinkedDevices.with { devices in
            let clock = devices.clock
            let (central, _) = try await devices.openChannel(accepted: LECreditBasedChannelParameters(mtu: 512, mps: 64, credits: 0), opened: Self.opened)
            let sending = Task(executorPreference: clock.taskExecutor) { () async throws -> ContinuousClock.Instant in
                do {
                    try await central.send([1, 2, 3], timeout: .seconds(10))
                } catch {
                    #expect("\(error)" == "cancelled after 1.00 s while awaiting Flow Control Credit Ind for channel 0x0040 (0 of 1 K-frames of a 3-octet SDU sent, no credits left)")
                    return clock.now
                }
                throw TestFailure("the send went without credits")
            }
            try await Task.sleep(for: .seconds(1), clock: clock)
            let cancelled = clock.now
            sending.cancel()
            #expect(try await sending.value == cancelled)
            #expect(await central.isOpen)
        }
    }
}

extension LECreditBasedChannelTests {
    /// A listener's stream ends when its device closes; a later `listen` takes the SPSM from an earlier one.
    @Test func listenersEndWithTheirDevice() async throws {
        try await LinkedDevices.with { devices in
            let first = try await devices.peripheral.listen(spsm: 0x0080)
            let second = try await devices.peripheral.listen(spsm: 0x0080)
            #expect(try await TestSupport.collect(first, count: 1, within: .seconds(1), clock: devices.clock).isEmpty)
            await #expect(throws: RoleError.self) { try await devices.peripheral.listen(spsm: 0x0100) }
            await #expect(throws: RoleError.self) { try await devices.peripheral.listen(spsm: 0x0081, mtu: 22) }
            await devices.peripheral.close()
            #expect(try await TestSupport.collect(second, count: 1, within: .seconds(1), clock: devices.clock).isEmpty)
        }
    }
}
