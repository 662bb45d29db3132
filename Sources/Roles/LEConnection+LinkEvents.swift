import HCIPackets
import GATT

extension LEConnection {
    /// The link's events from now on (MTU, data length, PHY, connection parameters, a peer's parameter
    /// request), each with the values the controller or the peer settled on; the stream ends with the link.
    public func linkEvents() -> AsyncStream<LinkEvent> {
        linkObservers.stream(bufferingPolicy: .bufferingNewest(64), open: isConnected, removingOn: host.loop) { [weak self] id in
            await self?.removeLinkObserver(id)
        }
    }

    /// Waits for the first link event `match` picks, within `timeout` on the host's clock; the error says
    /// what was awaited and which link events came instead.
    public func waitForLinkEvent<T: Sendable>(_ awaited: String, timeout: Duration,
                                              _ match: @escaping @Sendable (LinkEvent) -> T?) async throws(RoleError) -> T {
        let events = linkEvents()
        let clock = host.loop.clock
        let result: Result<T, RoleError> = await withTaskGroup(of: Result<T, RoleError>?.self) { group in
            group.addTask {
                var seen: [LinkEvent] = []
                for await event in events {
                    if let value = match(event) { return .success(value) }
                    seen.append(event)
                }
                return Task.isCancelled ? nil : .failure(.rejected("the link ended while waiting for \(awaited); it reported \(Self.describe(seen))"))
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout, clock: clock)
                } catch {
                    return nil
                }
                return .failure(.timeout(awaited: awaited, timeout: timeout))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(.rejected("cancelled while waiting for \(awaited)"))
        }
        return try result.get()
    }

    static func describe(_ events: [LinkEvent]) -> String {
        events.isEmpty ? "nothing" : events.map { "\($0)" }.joined(separator: ", ")
    }

    func removeLinkObserver(_ id: UInt64) { linkObservers.remove(id) }

    /// Tells every observer of a link event.
    func linkEventHappened(_ event: LinkEvent) {
        linkObservers.yield(event)
    }

    /// LE Data Length Change for this link.
    func dataLengthChanged(_ length: LinkDataLength) {
        dataLength = length
        linkEventHappened(.dataLength(length))
    }

    /// The ATT_MTU changed (either side's Exchange MTU).
    func mtuChanged(_ mtu: Int) {
        linkEventHappened(.mtu(mtu))
    }
}

extension LEConnection {
    /// Exchange MTU from our GATT client (Core v5.4 Vol 3 Part G §4.3.1), offering `offering` (default: the
    /// client's preferred MTU); returns the ATT_MTU both sides now use and reports it as a link event. The
    /// server half of the bearer follows, so our notifications use the same MTU.
    @discardableResult
    public func exchangeMTU(offering: Int? = nil) async throws(ATTError) -> Int {
        let mtu = try await gatt.exchangeMTU(offering: offering)
        attServer?.updateMTU(mtu)
        mtuChanged(mtu)
        return mtu
    }
}
