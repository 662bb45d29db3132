import SocketServing
import HCITransports

/// The hosts of a served adapter: one at a time, each bridged to the adapter through an `AdapterAttachment`.
extension AdapterServer {
    /// The largest data length H4 can carry (an ACL packet's 16-bit length): the controller, which the
    /// host asks for its buffer sizes, limits what a host sends, not the server.
    static let largestPacketData = 65_535

    /// On the listener's loop: serves the connection, or refuses it while another host is served — the
    /// check and the claim in one step, under one lock.
    func accepted(_ fd: Int32) {
        let origin = SocketOptions.peerAddress(fd).map { "from \($0)" } ?? "on \(address)"
        let turn = state.withLock { state -> (number: Int, busy: Int?)? in
            guard !state.shuttingDown, state.adapterGone == nil else { return nil }
            defer { state.nextClient += 1 }
            if let busy = state.serving { return (state.nextClient, busy) }
            state.serving = state.nextClient
            return (state.nextClient, nil)
        }
        guard let turn else { _ = SocketOptions.closeDescriptor(fd); return }
        if let busy = turn.busy {
            _ = SocketOptions.closeDescriptor(fd)
            options.log("hil serve: refused client \(turn.number) \(origin): client \(busy) is being served (one host at a time)")
            return
        }
        let number = turn.number
        let attachment = AdapterAttachment(moniker: options.name, adapterLoop: adapterLoop,
                                           sendToAdapter: { [weak self] packet in self?.toAdapter(packet) })
        let bridge: SocketBridge
        do {
            bridge = try SocketBridge(name: "\(address) client \(number)", loopLabel: "serve-client-\(number)", fd: fd,
                                      controller: attachment, maximumDataLength: Self.largestPacketData,
                                      clock: options.clock, idleTimeout: options.idleTimeout)
        } catch {
            state.withLock { $0.serving = nil }
            options.log("hil serve: refused client \(number) \(origin): \(error)")
            return
        }
        let client = Client(number: number, bridge: bridge, attachment: attachment)
        let admitted = state.withLock { state -> Bool in
            guard !state.shuttingDown, state.adapterGone == nil else { return false }
            state.client = client
            return true
        }
        guard admitted else {
            bridge.close(why: "the server is shutting down")
            return
        }
        options.announce("client \(number) connected \(origin)")
        bridge.start { [weak self] error in self?.ended(client, error) }
    }

    /// The host's connection has closed (both ends): the next host may come.
    private func ended(_ client: Client, _ error: HCITransportError) {
        let adapterGone = state.withLock { state -> HCITransportError? in
            if state.client?.number == client.number { state.client = nil }
            if state.serving == client.number { state.serving = nil }
            return state.adapterGone
        }
        defer { closings.signal() }
        let why: String
        if let adapterGone {
            why = "the controller went away: \(adapterGone.message)"
        } else if client.bridge.endedIdle {
            why = "idle: nothing sent or received for \(Self.seconds(options.idleTimeout)) (--idle-timeout); the controller is free for the next host"
        } else {
            switch error.kind {
            case .closedByPeer: why = "the host closed the connection"
            case .closedByHost: why = "the server is shutting down"
            default: why = "dropped: \(error.message)"
            }
        }
        options.announce("client \(client.number) disconnected: \(why)")
    }

    /// `300 s`, `0.5 s`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
