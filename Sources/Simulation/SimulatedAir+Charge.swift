import HCIPackets

/// Where the air charges an accessory's current model (`SimulatedChargeTrace`), on its own clock: each
/// advertising event per channel of its channel map, each connection event of its links from the anchor at
/// the link's interval, and each data PDU's air time (`AirTime`) sent or received.
extension SimulatedAir {
    /// Starts tracing the charge of controller `name` with `model`, powered or not as it is now; returns the
    /// trace (the one already there if it is traced).
    package nonisolated func traceCharge(of name: String, model: SimulatedCurrentModel, powered: Bool) -> SimulatedChargeTrace {
        chargeTraces.withLock { traces in
            if let trace = traces[name] { return trace }
            let trace = SimulatedChargeTrace(model: model, clock: clock, powered: powered)
            traces[name] = trace
            return trace
        }
    }

    /// The charge trace of controller `name`, if traced.
    nonisolated func trace(of name: String) -> SimulatedChargeTrace? {
        chargeTraces.withLock { $0[name] }
    }

    /// An advertising event of `model`: the charge per channel on each channel of its map.
    func chargeAdvertisingEvent(_ model: ControllerModel) {
        guard let trace = trace(of: model.name) else { return }
        let channels = (model.advertising.parameters.channelMap & 0x07).nonzeroBitCount
        trace.add(trace.model.advertisingChannelMicrocoulombs * Double(channels), at: loop.now)
    }

    /// The link's connection events from its anchor, for each side that is traced (again after an update).
    func chargeConnectionEvents(_ link: SimulatedLink) {
        for role in [LEConnectionComplete.Role.central, .peripheral] where !link[role].ended {
            trace(of: link[role].controller)?.connectionEvents(of: link.id, from: link.anchor, every: link.interval)
        }
    }

    /// The link ends for `role` (or both sides): its connection events stop now.
    func chargeLinkEnded(_ link: SimulatedLink, _ role: LEConnectionComplete.Role? = nil) {
        for side in [LEConnectionComplete.Role.central, .peripheral] where role == nil || role == side {
            trace(of: link[side].controller)?.linkEnded(link.id, at: loop.now)
        }
    }

    /// One exchange's PDUs: the central sends for `central` of air time the peripheral receives, and the
    /// peripheral sends for `peripheral` the central receives — the air time as the link takes it on this
    /// air's clock, so scaled by `timeScale` (a radio on for a tenth of the time draws a tenth of the charge).
    func chargeExchange(_ link: SimulatedLink, central centralAir: Duration, peripheral peripheralAir: Duration) {
        let now = loop.now
        let central = centralAir / .microseconds(1), peripheral = peripheralAir / .microseconds(1)
        if let trace = trace(of: link.central.controller) {
            trace.add(trace.model.transmitMicrocoulombsPerMicrosecond * central
                      + trace.model.receiveMicrocoulombsPerMicrosecond * peripheral, at: now)
        }
        if let trace = trace(of: link.peripheral.controller) {
            trace.add(trace.model.transmitMicrocoulombsPerMicrosecond * peripheral
                      + trace.model.receiveMicrocoulombsPerMicrosecond * central, at: now)
        }
    }
}
