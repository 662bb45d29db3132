import Support
import HCIPackets
import EventLoops
import HostCore
import GATT
extension LEConnection {
    /// Routes a PDU on the ATT channel (CID 0x0004): requests, commands and confirmations from the peer
    /// go to this link's ATT server (the device's GATT database); responses, notifications and
    /// indications go to the GATT client.
    func receivedATT(_ payload: [UInt8]) async {
        guard let first = payload.first else {
            await violated(ProtocolViolation(.att, "empty PDU (no opcode)", bytes: payload))
            return
        }
        guard ATTOpcode(first).isServerBound, var server = attServer else {
            guard ATTOpcode(first) == .exchangeMTURequest else {
                await gatt.receive(payload)
                return
            }
            // With no database served, the GATT client answers the peer's Exchange MTU: the MTU may change.
            let before = await gatt.mtu
            await gatt.receive(payload)
            let after = await gatt.mtu
            if after != before { mtuChanged(after) }
            return
        }
        let reply = server.reply(to: payload)
        attServer = server
        for event in reply.events {
            switch event {
            case .mtuExchanged(let mtu):
                await gatt.updateMTU(mtu)
                mtuChanged(mtu)
            case .valueWritten(let handle, let value):
                device?.valueWritten(connection: self.handle, attribute: handle, value: value)
            case .confirmationReceived:
                let waiters = confirmationWaiters
                confirmationWaiters.removeAll()
                for waiter in waiters { waiter.resolve(true) }
            case .subscriptionChanged(let valueHandle, let configuration):
                // A CCCD write is a write too (reported against the value handle it configures).
                device?.valueWritten(connection: self.handle, attribute: valueHandle,
                                     value: [UInt8(configuration.rawValue & 0xFF), UInt8(configuration.rawValue >> 8)], isClientConfiguration: true)
            case .dropped:
                break
            }
        }
        guard let response = reply.response else { return }
        if let delay = reply.delay {
            // A server that answers late (its responseDelay, or an interceptor's delay).
            Task(executorPreference: host.loop) {
                try? await Task.sleep(for: delay, clock: self.host.loop.clock)
                try? await self.send(channel: L2CAPChannelID.att, response)
            }
        } else {
            do {
                try await send(channel: L2CAPChannelID.att, response)
            } catch {
                note("ATT response not sent: \(error)")
            }
        }
    }

    func attBearerEnded(reason: HCIStatus, note: String?) {
        let gatt = gatt
        let why = note.map { "\(reason) (\($0))" } ?? reason.description
        Task(executorPreference: host.loop) { await gatt.bearerClosed(why) }
        let waiters = confirmationWaiters
        confirmationWaiters.removeAll()
        for waiter in waiters { waiter.resolve(true) }
    }

    /// Sends a Handle Value Notification to the peer if it subscribed to notifications of `valueHandle`;
    /// returns whether it did.
    @discardableResult
    public func notify(valueHandle: UInt16, value: [UInt8]) async throws(RoleError) -> Bool {
        guard let server = attServer, server.configuration(ofValue: valueHandle).contains(.notification) else { return false }
        do {
            try await send(channel: L2CAPChannelID.att, server.notification(handle: valueHandle, value: value))
        } catch {
            throw .host(error)
        }
        return true
    }

    /// Sends a Handle Value Indication if the peer subscribed to indications, and waits for its
    /// confirmation (30 s, the ATT transaction timeout); returns whether it was sent.
    @discardableResult
    public func indicate(valueHandle: UInt16, value: [UInt8], timeout: Duration = .seconds(30)) async throws(RoleError) -> Bool {
        guard var server = attServer, server.configuration(ofValue: valueHandle).contains(.indication) else { return false }
        let pdu = server.indication(handle: valueHandle, value: value)
        attServer = server
        // Registered before the indication goes out: a fast peer's confirmation is not missed.
        let waiter = OneShot<Bool>()
        confirmationWaiters.append(waiter)
        do {
            try await send(channel: L2CAPChannelID.att, pdu)
        } catch {
            confirmationWaiters.removeAll { $0 === waiter }
            throw .host(error)
        }
        let timer = host.loop.schedule(after: timeout) { waiter.resolve(false) }
        let confirmed = await waiter.value
        host.loop.cancelTimer(timer)
        guard confirmed, isConnected else {
            throw isConnected ? .timeout(awaited: "Handle Value Confirmation for handle 0x\(hex4(valueHandle))", timeout: timeout)
                              : .disconnected(handle: handle, reason: disconnectionReason ?? .unknownConnectionIdentifier)
        }
        return true
    }

    /// Serves `database` on this link from now on, keeping the peer's CCCD values where they still apply
    /// (`ATTServer.serve(_:)`).
    func serve(_ database: GATTDatabase) {
        if attServer == nil {
            attServer = ATTServer(database: database)
        } else {
            attServer?.serve(database)
        }
    }

    /// The peer's client characteristic configuration for a value handle on our server.
    public func subscription(ofValue valueHandle: UInt16) -> GATTClientConfiguration {
        attServer?.configuration(ofValue: valueHandle) ?? []
    }

    /// Installs `interceptor` on this link's ATT server (see `ATTServer.interceptor`): it may drop,
    /// delay or replace the response to each request the peer sends; nil removes it.
    public func setATTInterceptor(_ interceptor: ATTServer.Interceptor?) {
        attServer?.interceptor = interceptor
    }
}

/// Resumes an indication's waiter once: with true on confirmation, false on deadline or disconnection.
