import HCIPackets
import TestSupport
import HostCore
import Synchronization

/// One scenario — scan, connect, ACL both ways, disconnect from each side, a peer disconnecting with
/// Connection Timeout, connecting to a silent device — run the same way on any world, recorded as a
/// trace of what the hosts saw, with addresses replaced by role names so worlds compare.
enum DifferentialScenario {
    /// The hosts of one run: an advertiser (peripheral), a central, and a controller that never advertises.
    struct Hosts {
        let central: HCIHost
        let peripheral: HCIHost
        let silent: HCIHost
    }

    /// Counts events a match closure sees (match closures are @Sendable).
    final class Tally: Sendable {
        private let value = Mutex(0)
        func add(_ n: Int) -> Int { value.withLock { $0 += n; return $0 } }
    }

    /// Runs the scenario; `cutPower` takes the peripheral's controller away for good (last step).
    static func run(_ hosts: Hosts, cutPower: () async throws -> Void) async throws -> [String] {
        var trace: [String] = []
        let central = hosts.central, peripheral = hosts.peripheral
        guard let peripheralAddress = await peripheral.controllerInfo?.address,
              let centralAddress = await central.controllerInfo?.address,
              let silentAddress = await hosts.silent.controllerInfo?.address else { throw TestFailure("hosts not initialized") }
        func name(_ address: BDAddress) -> String {
            address == peripheralAddress ? "peripheral" : address == centralAddress ? "central" : address == silentAddress ? "silent" : "\(address)"
        }

        // 1. Scan.
        try await HostScenarios.advertise(peripheral, name: "HIL-Diff")
        let seen = try await central.expect("a report from the peripheral", timeout: .seconds(2)) { event -> AdvertisingReport? in
            guard case .hci(.le(.advertisingReports(let reports))) = event else { return nil }
            return reports.first { $0.address == peripheralAddress && !$0.isScanResponse }
        }
        try await central.send(LESetScanParameters(type: .passive))
        try await central.send(LESetScanEnable(true))
        let report = try await central.wait(for: seen)
        let count = Tally()
        let more = try await central.expect("more reports from the peripheral", timeout: .milliseconds(300)) { event -> Int? in
            guard case .hci(.le(.advertisingReports(let reports))) = event,
                  reports.contains(where: { $0.address == peripheralAddress && !$0.isScanResponse }) else { return nil }
            return count.add(1) >= 100 ? 100 : nil // never reached: the deadline ends the count
        }
        _ = try await HostScenarios.valueOrTimeout(more, on: central)
        try await central.send(LESetScanEnable(false))
        trace.append("scan: report from \(name(report.address)) connectable=\(report.isConnectable) name=\(report.advertisingData.localName ?? "-")")
        trace.append("scan: further reports in 300 ms: \(count.add(0) >= 5 ? "several" : "\(count.add(0))"), RSSI \(report.rssi == 127 ? "127 (not measured)" : (-70...(-40)).contains(report.rssi) ? "measured" : "\(report.rssi)")")

        // 2. Connect (the peripheral is still advertising).
        func connect() async throws -> (UInt16, UInt16) {
            // A connection ends advertising (the sim, as the spec says); enabling while enabled is harmless.
            trace.append("advertise: \(try await HostScenarios.status(of: LESetAdvertisingEnable(true), on: peripheral))")
            let onCentral = try await HostScenarios.expectConnectionComplete(central, "the central")
            let onPeripheral = try await HostScenarios.expectConnectionComplete(peripheral, "the peripheral")
            try await central.send(LECreateConnection(peerAddress: peripheralAddress, peerAddressType: .public))
            let c = try await central.wait(for: onCentral)
            let p = try await peripheral.wait(for: onPeripheral)
            trace.append("connect: central \(c.status) role=\(c.role) peer=\(name(c.peerAddress)); peripheral \(p.status) role=\(p.role) peer=\(name(p.peerAddress))")
            trace.append("connect: LE subevent 0x\(String(c.subevent, radix: 16))")
            return (c.handle, p.handle)
        }
        var (centralHandle, peripheralHandle) = try await connect()

        // 3. ACL both ways, larger than one buffer.
        for (from, to, fromHandle, toHandle, label) in [(central, peripheral, centralHandle, peripheralHandle, "central→peripheral"),
                                                         (peripheral, central, peripheralHandle, centralHandle, "peripheral→central")] {
            let pdu = HostScenarios.pdu(300, seed: label.hasPrefix("c") ? 1 : 2)
            let fragments = (pdu.count + (await from.aclBuffers.length) - 1) / (await from.aclBuffers.length)
            let tally = Tally()
            let completed = try await from.expect("Number Of Completed Packets for all \(fragments) fragments", timeout: .seconds(2)) { event -> Int? in
                guard case .hci(.numberOfCompletedPackets(let entries)) = event else { return nil }
                let total = tally.add(entries.filter { $0.handle == fromHandle }.reduce(0) { $0 + Int($1.count) })
                return total >= fragments ? total : nil
            }
            let arrived = try await to.expect("the PDU \(label)", timeout: .seconds(2)) { event -> [UInt8]? in
                if case .aclPDU(toHandle, let data) = event { return data }
                return nil
            }
            try await from.sendACL(handle: fromHandle, pdu: pdu)
            let data = try await to.wait(for: arrived)
            let total = try await from.wait(for: completed)
            trace.append("acl \(label): intact=\(data == pdu) completed=\(total == fragments ? "all" : "\(total)/\(fragments)")")
        }

        // 4. Disconnect from each side with Remote User Terminated Connection.
        for initiator in ["central", "peripheral"] {
            let (local, remote) = initiator == "central" ? (central, peripheral) : (peripheral, central)
            let (localHandle, remoteHandle) = initiator == "central" ? (centralHandle, peripheralHandle) : (peripheralHandle, centralHandle)
            let atLocal = try await HostScenarios.expectDisconnection(local, handle: localHandle, initiator)
            let atRemote = try await HostScenarios.expectDisconnection(remote, handle: remoteHandle, "its peer")
            try await local.send(Disconnect(handle: localHandle, reason: .remoteUserTerminatedConnection))
            trace.append("disconnect by \(initiator) (0x13): \(initiator) sees \(try await local.wait(for: atLocal)), peer sees \(try await remote.wait(for: atRemote))")
            (centralHandle, peripheralHandle) = try await connect()
        }

        // 5. The peripheral disconnects giving Connection Timeout (not a reason the spec lets a host give).
        let centralSaw = try await HostScenarios.expectDisconnection(central, handle: centralHandle, "the central", timeout: .milliseconds(600))
        let timeoutStatus = try await HostScenarios.status(of: Disconnect(handle: peripheralHandle, reason: .connectionTimeout), on: peripheral)
        let sawTimeout = try await HostScenarios.valueOrTimeout(centralSaw, on: central).map { "\($0)" } ?? "nothing"
        trace.append("peripheral Disconnect(0x08): status \(timeoutStatus), central sees \(sawTimeout)")
        if await !central.connections.isEmpty {
            let atPeripheral = try await HostScenarios.expectDisconnection(peripheral, handle: peripheralHandle, "the peripheral")
            try await central.disconnect(handle: centralHandle)
            _ = try await peripheral.wait(for: atPeripheral)
        }

        // 6. Connect to a controller that does not advertise.
        let attempt = try await HostScenarios.expectConnectionComplete(central, "the central", timeout: .milliseconds(300))
        try await central.send(LECreateConnection(peerAddress: silentAddress, peerAddressType: .public))
        if let complete = try await HostScenarios.valueOrTimeout(attempt, on: central) {
            trace.append("connect to silent: completes at once with \(complete.status)")
        } else {
            let cancelled = try await HostScenarios.expectConnectionComplete(central, "the central after cancel")
            let status = try await HostScenarios.status(of: LECreateConnectionCancel(), on: central)
            trace.append("connect to silent: pending; cancel \(status), then \(try await central.wait(for: cancelled).status)")
        }

        // 7. The peripheral's host resets its controller while connected.
        (centralHandle, peripheralHandle) = try await connect()
        let afterReset = try await HostScenarios.expectDisconnection(central, handle: centralHandle, "the central", timeout: .milliseconds(800))
        let resetSide = try await peripheral.expect("any Disconnection Complete on the reset side", timeout: .milliseconds(800)) { event -> HCIStatus? in
            if case .hci(.disconnectionComplete(let complete)) = event { return complete.reason }
            return nil
        }
        try await peripheral.initialize()
        let centralAfterReset = try await HostScenarios.valueOrTimeout(afterReset, on: central)
        let resetSideSaw = try await HostScenarios.valueOrTimeout(resetSide, on: peripheral)
        trace.append("peripheral Reset: central sees \(centralAfterReset.map { "\($0)" } ?? "nothing"), reset side sees \(resetSideSaw.map { "\($0)" } ?? "nothing")")
        if centralAfterReset == nil, await !central.connections.isEmpty {
            // btvirt keeps the dead handle; a Disconnect clears it (status 0x02 there).
            _ = try await HostScenarios.status(of: Disconnect(handle: centralHandle), on: central)
        }

        // 8. The peripheral's controller loses power while connected.
        try await HostScenarios.advertise(peripheral, name: "HIL-Diff")
        (centralHandle, peripheralHandle) = try await connect()
        let afterCut = try await HostScenarios.expectDisconnection(central, handle: centralHandle, "the central", timeout: .milliseconds(800))
        try await cutPower()
        trace.append("peripheral power cut: central sees \(try await HostScenarios.valueOrTimeout(afterCut, on: central).map { "\($0)" } ?? "nothing")")
        return trace
    }
}
