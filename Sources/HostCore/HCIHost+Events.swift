import HCIPackets
import HCITransports
/// An event a caller expects: registered before the action that causes it, awaited after.
public struct Expectation<Value: Sendable>: Sendable {
    let id: UInt64
}

/// The host's record of one expectation.
struct EventWaiter {
    let id: UInt64
    let awaited: String
    let timeout: Duration
    let started: ContinuousClock.Instant
    let match: @Sendable (HostEvent) -> (any Sendable)?
    var timer: UInt64 = 0
    var result: Result<any Sendable, HCIError>?
    var continuation: CheckedContinuation<Result<any Sendable, HCIError>, Never>?
}

extension HCIHost {
    /// Waits for the first host event that `match` maps to a value, within `timeout`.
    ///
    /// `awaited` says what is awaited, for the timeout error (e.g. "Disconnection Complete for handle
    /// 0x0040"), which also lists the last events that came instead.
    public func waitFor<Value: Sendable>(_ awaited: String, timeout: Duration,
                                         _ match: @escaping @Sendable (HostEvent) -> Value?) async throws(HCIError) -> Value {
        let expectation = try expect(awaited, timeout: timeout, match)
        return try await wait(for: expectation)
    }

    /// Starts watching for an event before the action that causes it, so a fast controller's answer is
    /// never missed; the deadline runs from now. Await it with `wait(for:)`.
    public func expect<Value: Sendable>(_ awaited: String, timeout: Duration,
                                        _ match: @escaping @Sendable (HostEvent) -> Value?) throws(HCIError) -> Expectation<Value> {
        if let closedReason { throw .transportClosed(closedReason) }
        if !started { try start() }
        let id = nextWaitID
        nextWaitID += 1
        let started = loop.now
        var waiter = EventWaiter(id: id, awaited: awaited, timeout: timeout, started: started, match: { event in match(event) })
        waiter.timer = loop.schedule(at: started.advanced(by: timeout)) { [weak self] in
            guard let self else { return }
            self.assumeIsolated { host in host.waiterTimedOut(id) }
        }
        eventWaiters.append(waiter)
        return Expectation(id: id)
    }

    /// Awaits an expectation's event (or its timeout, the transport closing, or the task's cancellation).
    public func wait<Value: Sendable>(for expectation: Expectation<Value>) async throws(HCIError) -> Value {
        guard let index = eventWaiters.firstIndex(where: { $0.id == expectation.id }) else {
            throw .unsupported("expectation \(expectation.id) was already awaited")
        }
        let outcome: Result<any Sendable, HCIError>
        if let result = eventWaiters[index].result {
            eventWaiters.remove(at: index)
            outcome = result
        } else {
            let id = expectation.id
            outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    // Looked up again: the await may hop executors, and the event may be settled meanwhile.
                    guard let current = eventWaiters.firstIndex(where: { $0.id == id }) else {
                        continuation.resume(returning: .failure(.unsupported("expectation \(id) was discarded while awaited")))
                        return
                    }
                    if let result = eventWaiters[current].result {
                        eventWaiters.remove(at: current)
                        continuation.resume(returning: result)
                    } else {
                        eventWaiters[current].continuation = continuation
                    }
                }
            } onCancel: {
                onLoop { host in host.waiterCancelled(id) }
            }
        }
        switch outcome {
        case .success(let value):
            guard let typed = value as? Value else { throw .unsupported("expectation \(expectation.id) produced the wrong type") }
            return typed
        case .failure(let error):
            throw error
        }
    }

    /// Stops watching for an expectation that will not be awaited (its action failed).
    public func discard<Value: Sendable>(_ expectation: Expectation<Value>) {
        guard let index = eventWaiters.firstIndex(where: { $0.id == expectation.id }) else { return }
        loop.cancelTimer(eventWaiters[index].timer)
        eventWaiters.remove(at: index)
    }

    /// Settles a waiter: resumes its caller, or keeps the result until the caller awaits.
    func settle(_ index: Int, _ result: Result<any Sendable, HCIError>) {
        loop.cancelTimer(eventWaiters[index].timer)
        if let continuation = eventWaiters[index].continuation {
            eventWaiters.remove(at: index)
            continuation.resume(returning: result)
        } else {
            eventWaiters[index].result = result
        }
    }

    func waiterCancelled(_ id: UInt64) {
        guard let index = eventWaiters.firstIndex(where: { $0.id == id }), eventWaiters[index].result == nil else { return }
        let waiter = eventWaiters[index]
        settle(index, .failure(.cancelled(awaited: waiter.awaited, waited: waiter.started.duration(to: loop.now))))
    }

    func waiterTimedOut(_ id: UInt64) {
        guard let index = eventWaiters.firstIndex(where: { $0.id == id }), eventWaiters[index].result == nil else { return }
        let waiter = eventWaiters[index]
        settle(index, .failure(.eventTimeout(awaited: waiter.awaited, timeout: waiter.timeout, recent: recentEvents.map(\.summary))))
    }

    func deliver(_ event: HostEvent) {
        var index = 0
        while index < eventWaiters.count {
            if eventWaiters[index].result == nil, let value = eventWaiters[index].match(event) {
                let before = eventWaiters.count
                settle(index, .success(value))
                if eventWaiters.count < before { continue }
            }
            index += 1
        }
        publish(event)
    }

    func handleTransport(_ event: HCITransportEvent) {
        switch event {
        case .packet(let packet): handle(packet)
        case .closed(let error): transportEnded(error)
        }
    }

    func transportEnded(_ error: HCITransportError) {
        guard closedReason == nil else { return }
        closedReason = error
        failAllCommands(.transportClosed(error))
        var index = 0
        while index < eventWaiters.count {
            if eventWaiters[index].result == nil {
                let before = eventWaiters.count
                settle(index, .failure(.transportClosed(error)))
                if eventWaiters.count < before { continue }
            }
            index += 1
        }
        aclFlow.dropAll(failing: .transportClosed(error))
        setState(.poweredOff)
        publish(.anomaly("transport closed: \(error)"))
        subscribers.finish()
        let ending = listeners
        listeners.removeAll()
        for entry in ending { entry.listener(nil) }
    }

    func handle(_ packet: HCIPacket) {
        switch packet {
        case .event(let eventPacket):
            let event: HCIEvent
            do {
                event = try HCIEvent(decoding: eventPacket)
            } catch {
                malformedEvent(eventPacket, error)
                return
            }
            remember(event)
            if case .le(.connectionComplete(let complete)) = event, complete.status == .success, connections[complete.handle] != nil {
                // Vol 4 Part E §5.3.1: a handle names one link until its Disconnection Complete. A controller that
                // gives the handle to a new link has ended the old one without saying so (btvirt does, after a
                // peer's Disconnect): the old link ends here, its waiters, credits and reassembly with it, so that
                // it is not orphaned; then the new one opens.
                let why = "LE Connection Complete for handle 0x\(hex4(complete.handle)), which was still open (no Disconnection "
                    + "Complete came for it): the earlier link on it is taken as ended"
                recordViolation(ProtocolViolation(.hci, why, bytes: eventPacket.parameters))
                clearConnection(complete.handle, why: why)
            }
            handle(event)
        case .aclData(let acl):
            do {
                let pdu = try reassembler.add(acl)
                for (handle, bytes) in reassembler.takeAbandoned() {
                    let claimed = bytes.count >= 2 ? Int(bytes[0]) | Int(bytes[1]) << 8 : nil
                    recordViolation(ProtocolViolation(.acl, "handle 0x\(hex4(handle)): L2CAP length \(claimed.map(String.init) ?? "?") "
                        + "but only \(max(0, bytes.count - 4)) octet(s) came before the next start fragment", bytes: bytes))
                }
                if let pdu { deliver(.aclPDU(handle: acl.handle, data: pdu)) }
            } catch {
                let what = error.description.hasPrefix("ACL ") ? String(error.description.dropFirst(4)) : error.description
                recordViolation(ProtocolViolation(.acl, what, bytes: acl.data))
            }
        case .command(let command):
            noteAnomaly("the controller sent a command packet (\(command.opcode)); ignored")
        case .other:
            break
        }
    }

    func malformedEvent(_ packet: HCIEventPacket, _ error: HCIDecodingError) {
        noteAnomaly(error.description)
        // A malformed Command Complete still completes its command, with the decoding error.
        if packet.code == HCIEvent.Code.commandComplete, packet.parameters.count >= 3 {
            let opcode = HCIOpcode(rawValue: UInt16(packet.parameters[1]) | UInt16(packet.parameters[2]) << 8)
            completeCommand(opcode: opcode, credits: packet.parameters[0], result: .failure(.malformed(error)), viaStatus: false)
        }
    }

    func remember(_ event: HCIEvent) {
        recentEvents.append(event)
        if recentEvents.count > 6 { recentEvents.removeFirst() }
    }

    func handle(_ event: HCIEvent) {
        switch event {
        case .commandComplete(let credits, let opcode, let parameters):
            let result: Result<[UInt8], HCIError>
            if let status = parameters.first {
                let code = HCIStatus(rawValue: status)
                result = code == .success ? .success(Array(parameters.dropFirst()))
                                          : .failure(.commandFailed(opcode: opcode, status: code))
            } else if opcode.rawValue == 0 {
                result = .success([])
            } else {
                result = .failure(.malformed(HCIDecodingError("Command Complete for \(opcode) has no Status")))
            }
            completeCommand(opcode: opcode, credits: credits, result: result, viaStatus: false)
        case .commandStatus(let status, let credits, let opcode):
            completeCommand(opcode: opcode, credits: credits,
                            result: status == .success ? .success([]) : .failure(.commandFailed(opcode: opcode, status: status)),
                            viaStatus: true)
        case .disconnectionComplete(let complete):
            if complete.status == .success {
                connections[complete.handle] = nil
                reassembler.drop(handle: complete.handle)
                aclFlow.drop(handle: complete.handle, failing: .disconnected(handle: complete.handle, reason: complete.reason))
            }
        case .numberOfCompletedPackets(let entries):
            aclFlow.completed(entries)
            pumpACL()
            if !aclFlow.drainWaiters.isEmpty { aclFlow.notifyDrainWaiters() }
        case .hardwareError(let code):
            noteAnomaly("Hardware Error 0x\(hex2(code))")
            failAllCommands(.hardwareError(code: code))
            setState(.unknown)
        case .le(.connectionComplete(let complete)) where complete.status == .success:
            connections[complete.handle] = HCIConnection(
                handle: complete.handle, role: complete.role, peerAddress: complete.peerAddress,
                peerAddressType: complete.peerAddressType, interval: complete.interval, latency: complete.latency,
                supervisionTimeout: complete.supervisionTimeout, established: loop.now)
            aclFlow.open(handle: complete.handle)
        case .le(.connectionUpdateComplete(let status, let handle, let interval, let latency, let timeout)) where status == .success:
            connections[handle]?.interval = interval
            connections[handle]?.latency = latency
            connections[handle]?.supervisionTimeout = timeout
        default:
            break
        }
        deliver(.hci(event))
    }
}

extension HCIEvent {
    /// A short description for logs and timeout messages.
    public var summary: String {
        switch self {
        case .commandComplete(_, let opcode, let parameters):
            "Command Complete (\(opcode)\(parameters.first.map { ", \(HCIStatus(rawValue: $0))" } ?? ""))"
        case .commandStatus(let status, _, let opcode): "Command Status (\(opcode), \(status))"
        case .disconnectionComplete(let complete):
            "Disconnection Complete (handle 0x\(hex4(complete.handle)), \(complete.status == .success ? "reason \(complete.reason)" : "status \(complete.status)"))"
        case .numberOfCompletedPackets: "Number Of Completed Packets"
        case .hardwareError(let code): "Hardware Error 0x\(hex2(code))"
        case .encryptionChange(let status, let handle, _): "Encryption Change (handle 0x\(hex4(handle)), \(status))"
        case .readRemoteVersionComplete(let version): "Read Remote Version Information Complete (\(version.status))"
        case .dataBufferOverflow: "Data Buffer Overflow"
        case .encryptionKeyRefreshComplete(let status, let handle): "Encryption Key Refresh Complete (handle 0x\(hex4(handle)), \(status))"
        case .le(let le): le.summary
        case .unknown(let code, _): "event 0x\(hex2(code))"
        }
    }
}

extension LEMetaEvent {
    /// A short description for logs and timeout messages.
    public var summary: String {
        switch self {
        case .connectionComplete(let complete):
            "LE Connection Complete (\(complete.status == .success ? "handle 0x\(hex4(complete.handle)) to \(complete.peerAddress)" : "\(complete.status)"))"
        case .advertisingReports(let reports): "LE Advertising Report (\(reports.map { $0.address.description }.joined(separator: ", ")))"
        case .connectionUpdateComplete(let status, let handle, _, _, _): "LE Connection Update Complete (handle 0x\(hex4(handle)), \(status))"
        case .readRemoteFeaturesComplete(let status, let handle, _): "LE Read Remote Features Complete (handle 0x\(hex4(handle)), \(status))"
        case .longTermKeyRequest(let handle, _, _): "LE Long Term Key Request (handle 0x\(hex4(handle)))"
        case .dataLengthChange(let handle, _, _, _, _): "LE Data Length Change (handle 0x\(hex4(handle)))"
        case .phyUpdateComplete(let status, let handle, _, _): "LE PHY Update Complete (handle 0x\(hex4(handle)), \(status))"
        case .scanTimeout: "LE Scan Timeout"
        case .advertisingSetTerminated(let status, let set, _, _): "LE Advertising Set Terminated (set \(set), \(status))"
        case .scanRequestReceived(let set, let type, let address): "LE Scan Request Received (set \(set), from \(address) (\(type)))"
        case .channelSelectionAlgorithm(let handle, let algorithm): "LE Channel Selection Algorithm (handle 0x\(hex4(handle)), #\(Int(algorithm) + 1))"
        case .unknown(let subevent, _): "LE subevent 0x\(hex2(subevent))"
        }
    }
}
