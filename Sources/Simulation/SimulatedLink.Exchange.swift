import HCIPackets

extension SimulatedLink {
    /// One exchange of a connection event (Core v5.4 Vol 6 Part B §4.5.1, §4.5.6): the central's PDU, T_IFS,
    /// the peripheral's PDU, T_IFS. Each PDU is a fragment of its side's first queued ACL packet, or empty.
    struct Exchange {
        /// Where the exchange is: the next thing its timer does.
        enum Step { case centralArrives, peripheralArrives, ends }

        /// The event's counter and the anchor of the next event, which no further exchange may pass.
        let event: Int
        let nextAnchor: ContinuousClock.Instant
        let start: ContinuousClock.Instant
        /// The PDUs, nil when empty, and their air time (scaled).
        let central: Fragment?
        let peripheral: Fragment?
        let centralAir: Duration
        let peripheralAir: Duration
        var step = Step.centralArrives

        /// When the central's PDU has arrived, the peripheral's, and the exchange ends.
        var centralArrival: ContinuousClock.Instant { start.advanced(by: centralAir) }
        func peripheralArrival(interFrameSpace: Duration) -> ContinuousClock.Instant {
            centralArrival.advanced(by: interFrameSpace + peripheralAir)
        }
        func end(interFrameSpace: Duration) -> ContinuousClock.Instant {
            peripheralArrival(interFrameSpace: interFrameSpace).advanced(by: interFrameSpace)
        }

        subscript(role: LEConnectionComplete.Role) -> Fragment? { role == .central ? central : peripheral }
    }

    /// An LL data PDU's payload: a fragment of an ACL packet (§2.4: LLID 0b10 for the start of an L2CAP
    /// message, 0b01 for a continuation).
    struct Fragment {
        let data: [UInt8]
        let isStart: Bool
        /// Whether this is the packet's last fragment: once acknowledged, its buffer is free.
        let completesPacket: Bool
    }

    /// The PHY a side transmits on.
    func phy(from role: LEConnectionComplete.Role) -> RadioPHY {
        role == .central ? centralPHY.transmitter : centralPHY.receiver
    }

    /// connEffectiveMaxTxTime of a side as used: on LE Coded at least 2704 µs (§4.5.10).
    func effectiveTime(_ time: UInt16, on phy: RadioPHY) -> UInt16 { phy == .leCoded ? max(time, 2704) : time }

    /// The most payload one PDU from `role` carries: connEffectiveMaxTxOctets, and no longer than
    /// connEffectiveMaxTxTime on the PHY in use (§4.5.10).
    func maximumPayload(from role: LEConnectionComplete.Role) -> Int {
        let phy = phy(from: role)
        let length = self[role].dataLength
        return AirTime.payload(octets: Int(length.octets), time: Int(effectiveTime(length.time, on: phy)), phy: phy,
                               coding: coding, encrypted: isEncrypted)
    }

    /// The air time of a PDU with `payload` octets from `role`, in µs.
    func airTime(payload: Int, from role: LEConnectionComplete.Role) -> Int {
        AirTime.pdu(payload: payload, phy: phy(from: role), coding: coding, encrypted: isEncrypted)
    }

    /// The Data Length Change values of `role`'s host: its effective TX octets and time, then RX (its peer's TX).
    func reportedDataLength(of role: LEConnectionComplete.Role) -> [UInt16] {
        let tx = self[role].dataLength, rx = self[role.other].dataLength
        return [tx.octets, effectiveTime(tx.time, on: phy(from: role)), rx.octets, effectiveTime(rx.time, on: phy(from: role.other))]
    }
}
