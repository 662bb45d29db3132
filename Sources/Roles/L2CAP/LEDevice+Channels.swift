extension LEDevice {
    /// Accepts LE credit-based channels peers open to `spsm` (Core v5.4 Vol 3 Part A §4.22) on any link,
    /// offering our MTU, MPS and initial credits; the stream yields each channel as it opens and ends when
    /// the device closes or another `listen` takes the SPSM. Requests for an SPSM nobody listens on are
    /// refused with 0x0002, SPSM not supported.
    public func listen(spsm: UInt16, mtu: UInt16 = 512, mps: UInt16 = 247, credits: UInt16 = 8) throws(RoleError) -> AsyncStream<LECreditBasedChannel> {
        let parameters = LECreditBasedChannelParameters(mtu: mtu, mps: mps, credits: credits)
        try parameters.check(spsm: spsm)
        let (stream, continuation) = AsyncStream<LECreditBasedChannel>.makeStream()
        let id = nextChannelListenerID
        nextChannelListenerID += 1
        channelListeners[spsm]?.continuation.finish()
        channelListeners[spsm] = ChannelListener(id: id, parameters: parameters, continuation: continuation)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task(executorPreference: self.host.loop) { await self.stopListening(spsm: spsm, id: id) }
        }
        return stream
    }

    /// Stops accepting channels to `spsm`: later requests get 0x0002, SPSM not supported.
    public func stopListening(spsm: UInt16) {
        channelListeners.removeValue(forKey: spsm)?.continuation.finish()
    }

    func stopListening(spsm: UInt16, id: UInt64) {
        if channelListeners[spsm]?.id == id { channelListeners[spsm] = nil }
    }

    func channelListener(spsm: UInt16) -> ChannelListener? { channelListeners[spsm] }

    /// Ends every listener's stream (the host's transport closed).
    func finishChannelListeners() {
        for listener in channelListeners.values { listener.continuation.finish() }
        channelListeners.removeAll()
    }
}

/// Who takes the channels peers open to one SPSM, and what we offer them.
struct ChannelListener: Sendable {
    let id: UInt64
    let parameters: LECreditBasedChannelParameters
    let continuation: AsyncStream<LECreditBasedChannel>.Continuation
}
