import HCIPackets

/// LE Set PHY (Core v5.4 Vol 4 Part E §7.8.49; LE Set Default PHY is accepted and changes nothing): a link's
/// PHYs change one connection event after it, and both hosts hear LE PHY Update Complete. Every controller of the air supports LE 2M and LE
/// Coded; a preference for several takes the fastest (2M, then 1M, then Coded).
extension SimulatedAir {
    func setPHY(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetPHY
        guard p.count == 7 else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16(), all = r.u8(), transmit = r.u8(), receive = r.u8()
        guard let (link, role) = link(of: model, handle: handle) else {
            return commandStatus(opcode, .unknownConnectionIdentifier, model)
        }
        let current = role == .central ? link.centralPHY : (link.centralPHY.receiver, link.centralPHY.transmitter)
        // All_PHYs bit 0 (bit 1): no preference for transmitting (receiving): that direction stays as it is.
        guard let tx = all & 0x01 != 0 ? current.0 : Self.preferred(transmit), let rx = all & 0x02 != 0 ? current.1 : Self.preferred(receive) else {
            return commandStatus(opcode, .invalidHCICommandParameters, model)
        }
        commandStatus(opcode, .success, model)
        link.requests.append(SimulatedLink.Request(initiator: role, kind: .phy(transmitter: tx, receiver: rx)))
        scheduleConnectionEvent(link)
    }

    /// The PHY chosen from a TX_PHYS/RX_PHYS bit field (bit 0 1M, bit 1 2M, bit 2 Coded); nil for none.
    static func preferred(_ bits: UInt8) -> UInt8? {
        if bits & 0x02 != 0 { return 2 }
        if bits & 0x01 != 0 { return 1 }
        if bits & 0x04 != 0 { return 3 }
        return nil
    }
}
