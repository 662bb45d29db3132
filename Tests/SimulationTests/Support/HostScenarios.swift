import HCIPackets
import TestSupport
import HostCore

/// The host-side steps tests repeat: advertise, scan, connect, disconnect, with every wait bounded.
enum HostScenarios {
    /// Advertising parameters with a 20 ms interval, then data with flags and a name, then enable.
    static func advertise(_ host: HCIHost, name: String, interval: UInt16 = 0x0020, scanResponse: [UInt8]? = nil) async throws {
        try await host.send(LESetAdvertisingParameters(intervalMin: interval, intervalMax: interval))
        try await host.send(LESetAdvertisingData(AdvertisingData.make(flags: [.leGeneralDiscoverable, .brEdrNotSupported], name: name).encoded()))
        if let scanResponse { try await host.send(LESetScanResponseData(scanResponse)) }
        try await host.send(LESetAdvertisingEnable(true))
    }

    /// The status a command completes with (success when it succeeds).
    static func status<Command: HCICommand>(of command: Command, on host: HCIHost) async throws -> HCIStatus {
        do throws(HCIError) {
            _ = try await host.send(command)
            return .success
        } catch {
            if case .commandFailed(_, let status) = error { return status }
            throw error
        }
    }

    /// The status a raw command packet completes with.
    static func status(ofRaw packet: HCICommandPacket, completion: HCICommandCompletion = .complete, on host: HCIHost) async throws -> HCIStatus {
        do throws(HCIError) {
            _ = try await host.sendRaw(packet, completion: completion)
            return .success
        } catch {
            if case .commandFailed(_, let status) = error { return status }
            throw error
        }
    }

    /// Waits for an expectation; nil when its deadline passes first.
    static func valueOrTimeout<Value: Sendable>(_ expectation: Expectation<Value>, on host: HCIHost) async throws -> Value? {
        do throws(HCIError) {
            return try await host.wait(for: expectation)
        } catch {
            if case .eventTimeout = error { return nil }
            throw error
        }
    }

    /// Expects LE Connection Complete (any status) on `host`.
    static func expectConnectionComplete(_ host: HCIHost, _ what: String, timeout: Duration = .seconds(2)) async throws
        -> Expectation<LEConnectionComplete> {
        try await host.expect("LE Connection Complete on \(what)", timeout: timeout) { event -> LEConnectionComplete? in
            if case .hci(.le(.connectionComplete(let complete))) = event { return complete }
            return nil
        }
    }

    /// Expects Disconnection Complete for `handle` on `host`.
    static func expectDisconnection(_ host: HCIHost, handle: UInt16, _ what: String, timeout: Duration = .seconds(2)) async throws
        -> Expectation<HCIStatus> {
        try await host.expect("Disconnection Complete for handle \(handle) on \(what)", timeout: timeout) { event -> HCIStatus? in
            if case .hci(.disconnectionComplete(let complete)) = event, complete.handle == handle { return complete.reason }
            return nil
        }
    }

    /// Connects `central` to `peripheral` (which starts advertising): both LE Connection Completes.
    static func connect(central: HCIHost, peripheral: HCIHost, target: BDAddress, targetType: AddressType = .public,
                        connection: ConnectionParameters = ConnectionParameters(),
                        timeout: Duration = .seconds(2)) async throws -> (central: LEConnectionComplete, peripheral: LEConnectionComplete) {
        try await advertise(peripheral, name: "HIL-Peripheral")
        let onCentral = try await expectConnectionComplete(central, "the central", timeout: timeout)
        let onPeripheral = try await expectConnectionComplete(peripheral, "the peripheral", timeout: timeout)
        try await central.send(LECreateConnection(peerAddress: target, peerAddressType: targetType, connection: connection))
        let c = try await central.wait(for: onCentral)
        let p = try await peripheral.wait(for: onPeripheral)
        guard c.status == .success, p.status == .success else {
            throw TestFailure("connection failed: central \(c.status), peripheral \(p.status)")
        }
        return (c, p)
    }

    /// An L2CAP PDU (basic header, channel 0x0004) with `count` payload bytes.
    static func pdu(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) }
        return [UInt8(count & 0xFF), UInt8(count >> 8), 0x04, 0x00] + payload
    }
}
