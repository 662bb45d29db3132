import HCIPackets

/// The data exchanges of a connection event (Core v5.4 Vol 6 Part B §4.5.1, §4.5.6): the central sends
/// first, the peripheral answers T_IFS after its PDU ends, and they go on — a side with nothing to send
/// sends an empty PDU — while either side has more data (the MD bit) and the next exchange ends by the next
/// event's anchor. Each PDU carries at most the sender's effective data length (§4.5.10), so an ACL packet
/// from a host is sent in fragments; the receiving host gets each PDU as its own ACL packet when its air time
/// ends, and the sender's host gets Number Of Completed Packets for a packet when the exchange that carried
/// its last fragment ends (its acknowledgement is in). One timer at a time steps the exchange; a link whose
/// sides have nothing to send arms none.
extension SimulatedAir {
    /// T_IFS, scaled like every air duration.
    var interFrameSpace: Duration { airDuration(AirTime.interFrameSpace) }

    /// `microseconds` of air time, scaled with the world's other air durations.
    func airDuration(_ microseconds: Int) -> Duration { timing.scaled(.microseconds(microseconds)) }

    /// Whether `role` has data it may send now.
    func hasData(_ link: SimulatedLink, _ role: LEConnectionComplete.Role) -> Bool {
        link.dataFlows && !link[role].ended && link.lost == nil && !link[role].queue.isEmpty
    }

    /// Starts the exchange at `start` of the event whose next anchor is `nextAnchor`, if either side has data
    /// and it fits (the first of an event always goes, so data moves on any interval); else the event ends.
    func beginExchange(_ link: SimulatedLink, event: Int, at start: ContinuousClock.Instant, nextAnchor: ContinuousClock.Instant,
                       first: Bool) {
        guard hasData(link, .central) || hasData(link, .peripheral) else { return endEvent(link) }
        let payloads = (central: nextPayload(link, .central), peripheral: nextPayload(link, .peripheral))
        let centralMicroseconds = link.airTime(payload: payloads.central, from: .central)
        let peripheralMicroseconds = link.airTime(payload: payloads.peripheral, from: .peripheral)
        let centralAir = airDuration(centralMicroseconds)
        let peripheralAir = airDuration(peripheralMicroseconds)
        let length = centralAir + interFrameSpace + peripheralAir + interFrameSpace
        guard first || start.advanced(by: length) <= nextAnchor else { return endEvent(link) }
        chargeExchange(link, central: centralAir, peripheral: peripheralAir)
        let exchange = SimulatedLink.Exchange(event: event, nextAnchor: nextAnchor, start: start,
                                              central: takeFragment(link, .central, payloads.central),
                                              peripheral: takeFragment(link, .peripheral, payloads.peripheral),
                                              centralAir: centralAir, peripheralAir: peripheralAir)
        link.exchange = exchange
        armExchange(link, at: exchange.centralArrival)
    }

    /// The payload of `role`'s next PDU: the rest of its first packet, at most its maximum payload.
    func nextPayload(_ link: SimulatedLink, _ role: LEConnectionComplete.Role) -> Int {
        guard hasData(link, role) else { return 0 }
        return min(link[role].queue[0].data.count - link[role].sent, link.maximumPayload(from: role))
    }

    /// Hands the next `count` octets of `role`'s first packet to the air.
    func takeFragment(_ link: SimulatedLink, _ role: LEConnectionComplete.Role, _ count: Int) -> SimulatedLink.Fragment? {
        guard hasData(link, role) else { return nil }
        let packet = link[role].queue[0], offset = link[role].sent
        link[role].sent = offset + count
        // Host → controller "first non-flushable" arrives as the LE start fragment, 0b10.
        return SimulatedLink.Fragment(data: Array(packet.data[offset..<offset + count]),
                                      isStart: offset == 0 && packet.boundary != .continuing,
                                      completesPacket: offset + count >= packet.data.count)
    }

    func armExchange(_ link: SimulatedLink, at instant: ContinuousClock.Instant) {
        let id = link.id
        link.eventTimer = loop.schedule(at: instant) { [weak self] in
            self?.assumeIsolated { air in air.exchangeStep(id) }
        }
    }

    func exchangeStep(_ id: UInt64) {
        guard let link = links[id], var exchange = link.exchange else { return }
        link.eventTimer = nil
        switch exchange.step {
        case .centralArrives:
            deliver(exchange.central, on: link, to: .peripheral)
            exchange.step = .peripheralArrives
            link.exchange = exchange
            armExchange(link, at: exchange.peripheralArrival(interFrameSpace: interFrameSpace))
        case .peripheralArrives:
            deliver(exchange.peripheral, on: link, to: .central)
            exchange.step = .ends
            link.exchange = exchange
            armExchange(link, at: exchange.end(interFrameSpace: interFrameSpace))
        case .ends:
            link.exchange = nil
            acknowledge(exchange, on: link, from: .central)
            acknowledge(exchange, on: link, from: .peripheral)
            beginExchange(link, event: exchange.event, at: exchange.end(interFrameSpace: interFrameSpace),
                          nextAnchor: exchange.nextAnchor, first: false)
        }
    }

    /// A PDU reaches the host of `role`, as an ACL packet of its own.
    func deliver(_ fragment: SimulatedLink.Fragment?, on link: SimulatedLink, to role: LEConnectionComplete.Role) {
        guard let fragment, !link[role].ended, let model = models[link[role].controller] else { return }
        emit(ACLDataPacket(handle: link[role].handle, boundary: fragment.isStart ? .firstFlushable : .continuing, data: fragment.data),
             to: model)
    }

    /// The exchange is over: a packet whose last fragment `role` sent in it is done, and its buffer free.
    func acknowledge(_ exchange: SimulatedLink.Exchange, on link: SimulatedLink, from role: LEConnectionComplete.Role) {
        guard let fragment = exchange[role], fragment.completesPacket, !link[role].ended, !link[role].queue.isEmpty else { return }
        link[role].queue.removeFirst()
        link[role].sent = 0
        guard let model = models[link[role].controller] else { return }
        model.aclBuffersInUse = max(0, model.aclBuffersInUse - 1)
        emit(.numberOfCompletedPackets([CompletedPackets(handle: link[role].handle, count: 1)]), to: model)
    }

    /// The event closes: a Disconnect waiting behind its side's data sends LL_TERMINATE_IND now; the next
    /// event is armed if there is work for it.
    func endEvent(_ link: SimulatedLink) {
        link.exchange = nil
        if let termination = link.termination, termination.sentAt == nil { sendTermination(link, at: link.lastEvent) }
        scheduleConnectionEvent(link)
    }
}
