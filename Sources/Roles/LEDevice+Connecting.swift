import Support
import HCIPackets
import EventLoops
import HostCore
/// A connection attempt waiting for its LE Connection Complete.
struct PendingConnect {
    let address: BDAddress
    let continuation: CheckedContinuation<Result<LEConnection, RoleError>, Never>

    func completed(_ result: Result<LEConnection, RoleError>) { continuation.resume(returning: result) }
    func fail(_ error: RoleError) { continuation.resume(returning: .failure(error)) }
}

extension LEDevice {
    /// Connects to an advertiser as central (LE Create Connection, or the extended form when the
    /// controller supports it). On deadline the attempt is cancelled (LE Create Connection Cancel) and
    /// `connectTimeout` thrown.
    public func connect(to address: BDAddress, type: AddressType, parameters: ConnectionParameters = ConnectionParameters(),
                        timeout: Duration = .seconds(5)) async throws(RoleError) -> LEConnection {
        guard pendingConnect == nil else { throw .busy("a connection attempt to \(pendingConnect?.address.description ?? "?") is under way") }
        let info = try await start()
        let extended = info.supportsExtendedScanning
        let own: AddressType
        do {
            own = try await applyIdentityAddress()
        } catch {
            throw .host(error)
        }
        var timer: UInt64 = 0
        let started = clock.now
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<LEConnection, RoleError>, Never>) in
                pendingConnect = PendingConnect(address: address, continuation: continuation)
                timer = host.loop.schedule(at: started.advanced(by: timeout)) { [weak self] in
                    guard let self else { return }
                    self.assumeIsolated { device in device.failPending(address: address, .connectTimeout(address: address, timeout: timeout)) }
                }
                Task(executorPreference: host.loop) { [host] in
                    do throws(HCIError) {
                        if extended {
                            try await host.send(LEExtendedCreateConnection(peerAddress: address, peerAddressType: type, ownAddressType: own, connection: parameters))
                        } else {
                            try await host.send(LECreateConnection(peerAddress: address, peerAddressType: type, ownAddressType: own, connection: parameters))
                        }
                    } catch {
                        await self.failPending(address: address, .host(error))
                    }
                }
            }
        } onCancel: { [host] in
            host.loop.execute {
                self.assumeIsolated { device in
                    device.failPending(address: address, .host(.cancelled(awaited: "LE Connection Complete from \(address)",
                                                                          waited: started.duration(to: host.loop.now))))
                }
            }
        }
        host.loop.cancelTimer(timer)
        switch result {
        case .failure(.connectTimeout), .failure(.host(.cancelled)):
            // The controller is still trying: cancel the attempt, even when this task is cancelled.
            await uncancelled(on: host.loop) { await self.cancelConnect(address: address) }
        default:
            break
        }
        return try result.get()
    }

    /// Scans for the first advertiser matching `filter`, then connects to it.
    public func connect(matching filter: ScanFilter, scanTimeout: Duration = .seconds(10), parameters: ConnectionParameters = ConnectionParameters(),
                        timeout: Duration = .seconds(5)) async throws(RoleError) -> LEConnection {
        let found = try await find(filter, timeout: scanTimeout)
        return try await connect(to: found.address, type: found.addressType, parameters: parameters, timeout: timeout)
    }

    func failPending(address: BDAddress, _ error: RoleError) {
        guard let pending = pendingConnect, pending.address == address else { return }
        pendingConnect = nil
        pending.fail(error)
    }

    /// Cancels a pending LE Create Connection and absorbs the LE Connection Complete (0x02) that follows.
    func cancelConnect(address: BDAddress) async {
        let absorbed = try? await host.expect("LE Connection Complete after LE Create Connection Cancel", timeout: .seconds(2)) { event -> HCIStatus? in
            if case .hci(.le(.connectionComplete(let complete))) = event, complete.role == .central { return complete.status }
            return nil
        }
        do {
            try await host.send(LECreateConnectionCancel())
        } catch {
            // 0x0C Command Disallowed: the attempt already ended (it may have just completed).
            if let absorbed { await host.discard(absorbed) }
            return
        }
        if let absorbed, let status = try? await host.wait(for: absorbed), status == .success {
            // It connected just as we cancelled: take the link down rather than leak it.
            for (handle, connection) in connections where connection.peerAddress == address {
                _ = try? await host.disconnect(handle: handle, reason: .remoteUserTerminatedConnection)
            }
        }
    }
}
