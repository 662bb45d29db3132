import HCIPackets
import HostCore
extension LEConnection {
    /// Handles the LE signaling channel (CID 0x0005, Core v5.4 Vol 3 Part A §4): connection parameter
    /// update requests from a peripheral (accepted when valid and the device's `parameterRequestPolicy` agrees,
    /// then applied with LE Connection Update), LE credit-based channels' commands,
    /// responses to our own request, and a Command Reject for what this host does not offer.
    func receivedSignaling(_ payload: [UInt8]) async {
        let command: LESignalingCommand
        do {
            command = try LESignalingCommand(decoding: payload)
        } catch {
            await violated(ProtocolViolation(.signaling, "command does not decode: \(error)", bytes: payload))
            try? await send(channel: L2CAPChannelID.leSignaling,
                            LESignalingCommand.commandReject(identifier: payload.count > 1 ? payload[1] : 0,
                                                             reason: LESignalingCommand.RejectReason.commandNotUnderstood, data: []).encoded)
            return
        }
        switch command {
        case .connectionParameterUpdateRequest(let identifier, let min, let max, let latency, let timeout):
            guard role == .central else {
                await violated(ProtocolViolation(.signaling, "Connection Parameter Update Request from the central (only a peripheral sends it, Vol 3 Part A §4.20)", bytes: payload))
                try? await send(channel: L2CAPChannelID.leSignaling,
                                LESignalingCommand.commandReject(identifier: identifier, reason: LESignalingCommand.RejectReason.commandNotUnderstood, data: []).encoded)
                return
            }
            let requested = ConnectionParameters(intervalMin: min, intervalMax: max, latency: latency, supervisionTimeout: timeout)
            let policy = await device?.parameterRequestPolicy ?? .acceptValid
            let acceptable = Self.validParameters(intervalMin: min, intervalMax: max, latency: latency, timeout: timeout) && policy.accepts(requested)
            linkEventHappened(.parameterRequest(LinkParameterRequest(requested: requested, accepted: acceptable)))
            try? await send(channel: L2CAPChannelID.leSignaling,
                            LESignalingCommand.connectionParameterUpdateResponse(identifier: identifier, result: acceptable ? 0 : 1).encoded)
            if acceptable {
                let parameters = ConnectionParameters(intervalMin: min, intervalMax: max, latency: latency, supervisionTimeout: timeout)
                // The link's own task, not awaited here: its PDUs keep flowing while the command waits for a credit,
                // and the link's end cancels it. (Awaited inline, a command queued behind a Command Complete that
                // granted 0 credits outlived its link until its deadline: hci-fuzz `host` found it left over.)
                peerRequestedUpdate?.cancel()
                let host = host, handle = handle
                peerRequestedUpdate = Task(executorPreference: host.loop) {
                    _ = try? await host.send(LEConnectionUpdate(handle: handle, connection: parameters))
                }
            }
        case .connectionParameterUpdateResponse(let identifier, let result):
            guard let pending = pendingParameterUpdate, pending.identifier == identifier else {
                await violated(ProtocolViolation(.signaling, "Connection Parameter Update Response \(identifier) answers no request", bytes: payload))
                return
            }
            pendingParameterUpdate = nil
            pending.continuation.resume(returning: result == 0 ? .success(()) : .failure(.rejected(
                "the central rejected the connection parameter update: Connection Parameter Update Response result 0x\(hex4(result)) (\(result == 1 ? "connection parameters rejected" : "reserved"))")))
        case .leCreditBasedConnectionRequest(let identifier, let spsm, let sourceCID, let mtu, let mps, let credits):
            await receivedChannelRequest(identifier: identifier, spsm: spsm, sourceCID: sourceCID,
                                         peer: LECreditBasedChannelParameters(mtu: mtu, mps: mps, credits: credits))
        case .commandReject(let identifier, let reason, _):
            if let pending = pendingParameterUpdate, pending.identifier == identifier {
                pendingParameterUpdate = nil
                pending.continuation.resume(returning: .failure(.rejected("the central rejected the request: Command Reject reason 0x\(hex4(reason))")))
            } else {
                _ = answeredChannelRequest(command)
            }
        case .leCreditBasedConnectionResponse, .disconnectionResponse:
            if !answeredChannelRequest(command) {
                await violated(ProtocolViolation(.signaling, "\(command) answers no request", bytes: payload))
            }
        case .disconnectionRequest(let identifier, let destinationCID, let sourceCID):
            await receivedDisconnectionRequest(identifier: identifier, destinationCID: destinationCID, sourceCID: sourceCID)
        case .flowControlCreditIndication(_, let cid, let credits):
            await receivedCredits(cid: cid, credits: credits)
        case .other(_, let identifier, _):
            try? await send(channel: L2CAPChannelID.leSignaling,
                            LESignalingCommand.commandReject(identifier: identifier, reason: LESignalingCommand.RejectReason.commandNotUnderstood, data: []).encoded)
        }
    }

    /// Range checks of Core v5.4 Vol 4 Part E §7.8.18: interval 7.5 ms…4 s, latency < 500, timeout
    /// 100 ms…32 s and larger than (1 + latency) × interval × 2.
    static func validParameters(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16) -> Bool {
        guard (6...3200).contains(intervalMin), (6...3200).contains(intervalMax), intervalMin <= intervalMax,
              latency <= 499, (10...3200).contains(timeout) else { return false }
        // timeout (10 ms units) × 10 > (1 + latency) × intervalMax (1.25 ms units) × 1.25 × 2
        return Int(timeout) * 40 > (1 + Int(latency)) * Int(intervalMax) * 10
    }

    /// Changes the connection parameters: as central with LE Connection Update; as peripheral with an
    /// L2CAP Connection Parameter Update Request to the central (a rejection throws `rejected`, naming the
    /// response's result). Waits for LE Connection Update Complete.
    ///
    /// A peripheral whose controller and peer both support the Connection Parameters Request procedure (LE
    /// feature bit 1) uses LE Connection Update itself, falling back to L2CAP when the peer's link layer
    /// refuses (0x1A Unsupported Remote Feature) or the controller refuses the command. Every step (reading
    /// the peer's features, either procedure) waits only for what is left of `timeout`.
    public func updateParameters(_ parameters: ConnectionParameters, timeout: Duration = .seconds(5)) async throws(RoleError) {
        guard isConnected else { throw .disconnected(handle: handle, reason: disconnectionReason ?? .unknownConnectionIdentifier) }
        let deadline = host.loop.now.advanced(by: timeout)
        let loop = host.loop
        func left() -> Duration { max(.zero, loop.now.duration(to: deadline)) }
        let status: HCIStatus
        if role == .central {
            status = try await connectionUpdate(timeout: timeout) { () async throws(RoleError) in try await self.sendConnectionUpdate(parameters) }
        } else if await usesLinkLayerParameterRequest(timeout: timeout),
                  let answer = try await linkLayerParameterRequest(parameters, timeout: left()), answer != .unsupportedRemoteFeature {
            status = answer
        } else {
            let remaining = left()
            status = try await connectionUpdate(timeout: remaining) { () async throws(RoleError) in
                try await self.requestParameterUpdate(parameters, timeout: remaining)
            }
        }
        guard status == .success else { throw .host(.commandFailed(opcode: .leConnectionUpdate, status: status)) }
    }

    /// Our peripheral's L2CAP Connection Parameter Update Request (Vol 3 Part A §4.20), answered by the
    /// central's response within `timeout`; a rejection or a Command Reject throws `rejected`.
    func requestParameterUpdate(_ parameters: ConnectionParameters, timeout: Duration) async throws(RoleError) {
        let identifier = takeSignalingIdentifier()
        let request = LESignalingCommand.connectionParameterUpdateRequest(
            identifier: identifier, intervalMin: parameters.intervalMin, intervalMax: parameters.intervalMax,
            latency: parameters.latency, timeout: parameters.supervisionTimeout)
        let awaited = "Connection Parameter Update Response \(identifier)"
        var timer: UInt64 = 0
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, RoleError>, Never>) in
            // One request at a time, and never an endless wait for the central's answer (hci-fuzz `host`
            // found a second request overwriting the first's continuation, and a silent central waited on forever).
            guard pendingParameterUpdate == nil else {
                continuation.resume(returning: .failure(.busy("a connection parameter update is under way")))
                return
            }
            pendingParameterUpdate = (identifier, continuation)
            timer = host.loop.schedule(after: timeout) { [weak self] in
                guard let self else { return }
                self.assumeIsolated { $0.failParameterUpdate(identifier: identifier, .timeout(awaited: awaited, timeout: timeout)) }
            }
            Task(executorPreference: host.loop) {
                do throws(HCIError) {
                    try await self.send(channel: L2CAPChannelID.leSignaling, request.encoded)
                } catch {
                    await self.failParameterUpdate(identifier: identifier, .host(error))
                }
            }
        }
        host.loop.cancelTimer(timer)
        try answer.get()
    }

    func failParameterUpdate(identifier: UInt8, _ error: RoleError) {
        guard let pending = pendingParameterUpdate, pending.identifier == identifier else { return }
        pendingParameterUpdate = nil
        pending.continuation.resume(returning: .failure(error))
    }

    func parametersUpdated(status: HCIStatus, interval: UInt16, latency: UInt16, timeout: UInt16) {
        linkEventHappened(.parameters(LinkParametersUpdate(status: status, interval: interval, latency: latency, supervisionTimeout: timeout)))
        guard status == .success else { return }
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = timeout
    }
}
