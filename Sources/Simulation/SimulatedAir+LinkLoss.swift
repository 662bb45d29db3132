import HCIPackets

/// How links end: a side's host is told (Disconnection Complete), a side's controller forgets silently
/// (power-off, Reset), and the survivor of a vanished peer times out after the link's supervision timeout
/// with Connection Timeout (0x08), at the first connection event at or after it.
extension SimulatedAir {
    /// Tells one side's host the link ended with `reason`, and frees that side's handle and buffers.
    func endSide(_ link: SimulatedLink, _ role: LEConnectionComplete.Role, reason: HCIStatus) {
        let end = link[role]
        guard !end.ended else { return }
        chargeLinkEnded(link, role)
        link[role].ended = true
        link[role].queue.removeAll()
        guard let model = models[end.controller], model.links[end.handle] == link.id else { return }
        model.links[end.handle] = nil
        model.aclBuffersInUse = max(0, model.aclBuffersInUse - end.queue.count)
        emit(.disconnectionComplete(DisconnectionComplete(status: .success, handle: end.handle, reason: reason)), to: model)
    }

    /// A controller loses its links without telling its host (power-off, Reset): each peer keeps waiting
    /// for packets that never come, until its supervision timeout.
    func dropLinks(of model: ControllerModel) {
        let owned = model.links
        model.links.removeAll()
        model.aclBuffersInUse = 0
        for (handle, id) in owned {
            guard let link = links[id], let role = link.role(of: model.name, handle: handle) else { continue }
            sideLost(link, role)
        }
    }

    func sideLost(_ link: SimulatedLink, _ role: LEConnectionComplete.Role) {
        chargeLinkEnded(link, role)
        link[role].ended = true
        link[role].queue.removeAll()
        let survivor = role.other
        if link[survivor].ended || link.lost != nil { return destroy(link) }
        link.lost = role
        if let timer = link.eventTimer { loop.cancelTimer(timer) }
        link.eventTimer = nil
        link.exchange = nil
        endEncryption(link) // its peer's silence ends the link at the supervision timeout, not the LL response timeout
        // The survivor last heard its peer now when this is the interval of the last event (a PDU took air time
        // in it): it gives up a supervision timeout later. Else it heard it at its last event, and gives up at
        // the first event a supervision timeout from now.
        let lastAnchor = link.anchor.advanced(by: link.interval * (link.lastEvent - link.anchorCounter))
        let inLastEvent = link.lastEvent >= 0 && lastAnchor <= loop.now && loop.now < lastAnchor.advanced(by: link.interval)
        let deadline = inLastEvent ? loop.now.advanced(by: link.supervisionTimeout)
                                   : link.nextEvent(atOrAfter: loop.now.advanced(by: link.supervisionTimeout)).at
        let id = link.id
        link.supervisionTimer = loop.schedule(at: deadline) { [weak self] in
            self?.assumeIsolated { air in air.supervisionTimedOut(id) }
        }
    }

    /// The survivor's supervision timer expired: Connection Timeout (0x08), or Connection Terminated By
    /// Local Host (0x16) when its own Disconnect was waiting for an acknowledgement that never came.
    func supervisionTimedOut(_ id: UInt64) {
        guard let link = links[id], let lost = link.lost else { return }
        link.supervisionTimer = nil
        let survivor = lost.other
        let reason: HCIStatus = link.termination?.initiator == survivor ? .connectionTerminatedByLocalHost : .connectionTimeout
        endSide(link, survivor, reason: reason)
        destroy(link)
    }

    /// Removes a link from the air: its timers are cancelled and any side not yet ended forgets it silently.
    func destroy(_ link: SimulatedLink) {
        chargeLinkEnded(link)
        if let timer = link.eventTimer { loop.cancelTimer(timer) }
        if let timer = link.supervisionTimer { loop.cancelTimer(timer) }
        link.eventTimer = nil
        link.supervisionTimer = nil
        link.exchange = nil
        endEncryption(link)
        link.longTermKey = nil
        for role in [LEConnectionComplete.Role.central, .peripheral] where !link[role].ended {
            let end = link[role]
            link[role].ended = true
            if let model = models[end.controller], model.links[end.handle] == link.id {
                model.links[end.handle] = nil
                model.aclBuffersInUse = max(0, model.aclBuffersInUse - end.queue.count)
            }
            link[role].queue.removeAll()
        }
        links[link.id] = nil
    }
}
