import HCIPackets

/// Connection events: LL_TERMINATE_IND, connection updates, remote-information, PHY and data length
/// procedures and encryption ride the next event of their link (at `anchor + n × interval`), then ACL data
/// in exchanges that take air time (SimulatedAir+Exchanges.swift).
extension SimulatedAir {
    /// Disconnect reasons the Core spec allows the host to give (Vol 4 Part E §7.1.6).
    static let disconnectReasons: Set<UInt8> = [0x05, 0x13, 0x14, 0x15, 0x1A, 0x29, 0x3B]

    /// The link and this controller's side of it for a handle the host named.
    func link(of model: ControllerModel, handle: UInt16) -> (SimulatedLink, LEConnectionComplete.Role)? {
        guard let id = model.links[handle], let link = links[id], let role = link.role(of: model.name, handle: handle),
              !link[role].ended else { return nil }
        return (link, role)
    }

    /// Disconnect (§7.1.6): Command Status, then LL_TERMINATE_IND at the next event — the peer's host gets
    /// Disconnection Complete with the reason sent — and one event later, when the peer's acknowledgement
    /// is in, this host gets Disconnection Complete with Connection Terminated By Local Host (0x16).
    func disconnect(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.disconnect
        guard p.count == 3 else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16(), reason = r.u8()
        guard handle <= 0x0EFF, Self.disconnectReasons.contains(reason) else {
            return commandStatus(opcode, .invalidHCICommandParameters, model)
        }
        guard let (link, role) = link(of: model, handle: handle) else {
            return commandStatus(opcode, .unknownConnectionIdentifier, model)
        }
        if let termination = link.termination {
            // Already ending: a second Disconnect from the same side is disallowed; the other side's simply
            // meets the terminate already on its way (its host gets that one's reason).
            return commandStatus(opcode, termination.initiator == role ? .commandDisallowed : .success, model)
        }
        link.termination = SimulatedLink.Termination(initiator: role, reason: HCIStatus(rawValue: reason))
        commandStatus(opcode, .success, model)
        scheduleConnectionEvent(link)
    }

    /// LE Connection Update (§7.8.18): Command Status, then LE Connection Update Complete at the instant,
    /// `connectionUpdateInstantEvents` events later, to the initiator's host (and the peer's when the
    /// parameters changed). The interval chosen is Connection_Interval_Min.
    func connectionUpdate(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leConnectionUpdate
        guard p.count == 14 else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16()
        let parameters = r.connectionParameters()
        guard let (link, role) = link(of: model, handle: handle) else {
            return commandStatus(opcode, .unknownConnectionIdentifier, model)
        }
        guard parameters.isValidForHCI else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        guard link.update == nil, link.termination == nil else { return commandStatus(opcode, .commandDisallowed, model) }
        link.update = SimulatedLink.Update(initiator: role, parameters: parameters)
        commandStatus(opcode, .success, model)
        scheduleConnectionEvent(link)
    }

    /// LE Read Remote Features (§7.8.21) and Read Remote Version Information (§7.1.23): Command Status,
    /// the request at the next event, the answer one event later.
    func remoteRequest(_ kind: SimulatedLink.Request.Kind, opcode: HCIOpcode, _ p: [UInt8], _ model: ControllerModel) {
        guard p.count == 2 else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        guard let (link, role) = link(of: model, handle: r.u16()) else {
            return commandStatus(opcode, .unknownConnectionIdentifier, model)
        }
        commandStatus(opcode, .success, model)
        link.requests.append(SimulatedLink.Request(initiator: role, kind: kind))
        scheduleConnectionEvent(link)
    }

    /// ACL data from a host: queued for the link's exchanges; Data Buffer Overflow when the
    /// host overruns the LE buffers it was given (too long, or more packets than buffers). Data for a
    /// handle that is not open is dropped.
    func hostSentACL(_ packet: ACLDataPacket, _ model: ControllerModel) {
        guard let (link, role) = link(of: model, handle: packet.handle) else { return }
        guard packet.data.count <= Int(model.configuration.leBufferLength),
              model.aclBuffersInUse < Int(model.configuration.leBufferCount) else {
            return emit(.dataBufferOverflow(linkType: 0x01), to: model)
        }
        model.aclBuffersInUse += 1
        link[role].queue.append(packet)
        scheduleConnectionEvent(link)
    }

    // MARK: Events

    /// Arms the timer of the link's next connection event, when it has something to carry and both sides
    /// are there to carry it.
    func scheduleConnectionEvent(_ link: SimulatedLink) {
        guard link.eventTimer == nil, link.lost == nil, link.hasWork else { return }
        let next = link.nextEvent(atOrAfter: loop.now)
        let id = link.id
        let counter = next.counter
        link.eventTimer = loop.schedule(at: next.at) { [weak self] in
            self?.assumeIsolated { air in air.connectionEvent(id, counter: counter) }
        }
    }

    /// A connection event: its control procedures ride first, at the anchor (LL_TERMINATE_IND, unless its
    /// side still has data queued: then it follows that data at the event's end), and take the first
    /// exchange's slot; then the data exchanges (`beginExchange`).
    func connectionEvent(_ id: UInt64, counter: Int) {
        guard let link = links[id] else { return }
        link.eventTimer = nil
        guard link.lost == nil else { return }
        link.lastEvent = counter
        let control = link.termination != nil || link.update != nil || !link.requests.isEmpty || link.encryption?.needsEvent == true
        if let termination = link.termination, termination.sentAt == nil, !hasData(link, termination.initiator) {
            sendTermination(link, at: counter)
        } else if let termination = link.termination, let sentAt = termination.sentAt, counter > sentAt {
            // The peer acknowledged LL_TERMINATE_IND.
            endSide(link, termination.initiator, reason: .connectionTerminatedByLocalHost)
            return destroy(link)
        }
        if let update = link.update {
            if let instant = update.instant {
                if counter >= instant { applyUpdate(link, update, at: counter) }
            } else {
                link.update?.instant = counter + max(1, timing.connectionUpdateInstantEvents)
            }
        }
        var index = 0
        while index < link.requests.count {
            let request = link.requests[index]
            if let sentAt = request.sentAt, counter > sentAt {
                link.requests.remove(at: index)
                answer(request, on: link)
            } else {
                if request.sentAt == nil { link.requests[index].sentAt = counter }
                index += 1
            }
        }
        guard advanceEncryption(link, at: counter), links[id] != nil else { return }
        let anchor = link.anchor.advanced(by: link.interval * (counter - link.anchorCounter))
        beginExchange(link, event: counter, at: control ? anchor.advanced(by: controlSlot(link)) : anchor,
                      nextAnchor: anchor.advanced(by: link.interval), first: true)
    }

    /// The slot a control procedure takes from an event's data: one exchange of 27-octet PDUs (every LL
    /// control PDU fits in 27 octets, Vol 6 Part B §2.4.2).
    func controlSlot(_ link: SimulatedLink) -> Duration {
        airDuration(AirTime.exchange(central: link.airTime(payload: 27, from: .central),
                                     peripheral: link.airTime(payload: 27, from: .peripheral)))
    }

    /// LL_TERMINATE_IND reaches the peer: its host hears the link ended with the reason sent (§5.1.6).
    func sendTermination(_ link: SimulatedLink, at counter: Int) {
        guard let termination = link.termination, termination.sentAt == nil, !link[termination.initiator].ended else { return }
        link.termination?.sentAt = counter
        endSide(link, termination.initiator.other, reason: termination.reason)
    }

    func applyUpdate(_ link: SimulatedLink, _ update: SimulatedLink.Update, at counter: Int) {
        let eventTime = link.anchor.advanced(by: link.interval * (counter - link.anchorCounter))
        let parameters = update.parameters
        let changed = parameters.intervalMin != link.intervalUnits || parameters.latency != link.latency
            || parameters.supervisionTimeout != link.timeoutUnits
        link.update = nil
        link.adopt(parameters, timing: timing)
        link.anchor = eventTime
        link.anchorCounter = counter
        chargeConnectionEvents(link)
        for role in [LEConnectionComplete.Role.central, .peripheral] where role == update.initiator || changed {
            let end = link[role]
            guard !end.ended, let model = models[end.controller] else { continue }
            emit(.le(.connectionUpdateComplete(status: .success, handle: end.handle, interval: link.intervalUnits,
                                               latency: link.latency, supervisionTimeout: link.timeoutUnits)), to: model)
        }
    }

    func answer(_ request: SimulatedLink.Request, on link: SimulatedLink) {
        let asker = link[request.initiator]
        guard !asker.ended, let model = models[asker.controller],
              let peer = models[link[request.initiator.other].controller]?.configuration else { return }
        switch request.kind {
        case .features:
            emit(.le(.readRemoteFeaturesComplete(status: .success, handle: asker.handle, features: peer.reportedLEFeatures)), to: model)
        case .version:
            emit(.readRemoteVersionComplete(RemoteVersion.make(status: .success, handle: asker.handle, version: peer.lmpVersion,
                                                          manufacturer: peer.manufacturer, subversion: peer.lmpSubversion)), to: model)
        case .phy(let transmitter, let receiver, let coding):
            completePHYUpdate(on: link, initiator: request.initiator, transmitter: transmitter, receiver: receiver, coding: coding)
        case .dataLength:
            completeDataLengthUpdate(on: link)
        }
    }
}
