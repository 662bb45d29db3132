import HCIPackets
/// The PHYs of a link, each direction from our side (Core v5.4 Vol 4 Part E §7.7.65.12: 1 LE 1M, 2 LE 2M,
/// 3 LE Coded).
public struct LinkPHY: Sendable, Hashable, CustomStringConvertible {
    public var transmitter: UInt8
    public var receiver: UInt8

    public init(transmitter: UInt8, receiver: UInt8) {
        self.transmitter = transmitter
        self.receiver = receiver
    }

    /// "LE 2M" for a PHY's number.
    public static func name(_ phy: UInt8) -> String {
        switch phy {
        case 1: "LE 1M"
        case 2: "LE 2M"
        case 3: "LE Coded"
        default: "PHY 0x\(String(phy, radix: 16))"
        }
    }

    public var description: String { "transmitting on \(Self.name(transmitter)), receiving on \(Self.name(receiver))" }
}

/// One LE PHY Update Complete on a link: its status, and the PHYs in use after it.
public struct LinkPHYUpdate: Sendable, Hashable {
    public var status: HCIStatus
    public var phy: LinkPHY

    public init(status: HCIStatus, phy: LinkPHY) {
        self.status = status
        self.phy = phy
    }
}

extension LEConnection {
    /// LE PHY Update Complete for this link: the PHYs change (on success) and observers hear of it.
    func phyUpdated(status: HCIStatus, transmitter: UInt8, receiver: UInt8) {
        if status == .success { phy = LinkPHY(transmitter: transmitter, receiver: receiver) }
        let update = LinkPHYUpdate(status: status, phy: phy)
        phyObservers.yield(update)
        linkEventHappened(.phy(update))
    }

    /// The link's PHY updates from now on (whoever asked for them: the peer, or our controller); the stream
    /// ends with the link.
    public func phyUpdates() -> AsyncStream<LinkPHYUpdate> {
        phyObservers.stream(open: isConnected, removingOn: host.loop) { [weak self] id in await self?.removePHYObserver(id) }
    }

    func removePHYObserver(_ id: UInt64) { phyObservers.remove(id) }
}
