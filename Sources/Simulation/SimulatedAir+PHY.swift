import HCIPackets

/// The PHY Update procedure as a controller runs it (Core v5.4 Vol 6 Part B §5.1.10; HCI Vol 4 Part E
/// §7.8.47–§7.8.49): LE Set Default PHY records the host's preferences; LE Set PHY sends LL_PHY_REQ with the
/// initiator's acceptable PHYs, the peer answers (LL_PHY_RSP) with its host's preferences among the PHYs its
/// controller supports, and each direction takes the fastest PHY both accept (2M, then 1M, then Coded) one
/// event later — or stays where it is when they share none. The initiator's host always hears LE PHY Update
/// Complete, the peer's only when a PHY changed (§7.7.65.12). A controller never ends up on a PHY it lacks.
extension SimulatedAir {
    /// A host's PHY preferences, checked: the acceptable PHYs as TX_PHYS/RX_PHYS bits, or the refusal.
    enum PHYPreferences {
        case accepted(transmit: UInt8, receive: UInt8)
        case refused(HCIStatus)
    }

    /// The acceptable PHYs of an All_PHYs/TX_PHYS/RX_PHYS triple among those `model` supports, or the status
    /// that refuses it: Unsupported Feature or Parameter Value (0x11) for a PHY the controller lacks or a
    /// reserved bit, Invalid HCI Command Parameters (0x12) for a direction with a preference but no PHY.
    func acceptablePHYs(all: UInt8, transmit: UInt8, receive: UInt8, _ model: ControllerModel)
        -> PHYPreferences {
        let supported = model.configuration.phyBits
        var result: (transmit: UInt8, receive: UInt8) = (supported, supported)
        for (noPreference, bits, isTransmit) in [(all & 0x01 != 0, transmit, true), (all & 0x02 != 0, receive, false)] where !noPreference {
            guard bits != 0 else { return .refused(.invalidHCICommandParameters) }
            guard bits & ~supported == 0 else { return .refused(.unsupportedFeatureOrParameterValue) }
            if isTransmit { result.transmit = bits } else { result.receive = bits }
        }
        return .accepted(transmit: result.transmit, receive: result.receive)
    }

    /// LE Set Default PHY (§7.8.48).
    func setDefaultPHY(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetDefaultPHY
        guard p.count == 3 else { return complete(opcode, .invalidHCICommandParameters, model) }
        switch acceptablePHYs(all: p[0], transmit: p[1], receive: p[2], model) {
        case .refused(let status): complete(opcode, status, model)
        case .accepted(let transmit, let receive):
            model.defaultPHYs = (transmit, receive)
            complete(opcode, .success, model)
        }
    }

    /// LE Set PHY (§7.8.49): Command Status, LL_PHY_REQ at the next event. PHY_options 1 asks for S=2 on LE
    /// Coded, 2 for S=8, 0 for no preference (S=8 here).
    func setPHY(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetPHY
        guard p.count == 7 else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16(), all = r.u8(), transmit = r.u8(), receive = r.u8(), options = r.u16()
        guard let (link, role) = link(of: model, handle: handle) else {
            return commandStatus(opcode, .unknownConnectionIdentifier, model)
        }
        switch acceptablePHYs(all: all, transmit: transmit, receive: receive, model) {
        case .refused(let status): commandStatus(opcode, status, model)
        case .accepted(let transmitPHYs, let receivePHYs):
            commandStatus(opcode, .success, model)
            let coding: CodedScheme = options & 0x03 == 1 ? .s2 : .s8
            link.requests.append(SimulatedLink.Request(initiator: role, kind: .phy(transmitter: transmitPHYs, receiver: receivePHYs, coding: coding)))
            scheduleConnectionEvent(link)
        }
    }

    /// LE Read PHY (§7.8.47): the PHYs a link uses now.
    func readPHY(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leReadPHY
        guard p.count == 2 else { return complete(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16()
        guard let (link, role) = link(of: model, handle: handle) else { return complete(opcode, .unknownConnectionIdentifier, model) }
        var w = ReturnParameterWriter()
        w.u16(handle); w.u8(link.phy(from: role).rawValue); w.u8(link.phy(from: role.other).rawValue)
        complete(opcode, .success, model, w.bytes)
    }

    /// The fastest PHY among TX_PHYS/RX_PHYS bits; nil for none.
    static func fastest(_ bits: UInt8) -> RadioPHY? { RadioPHY.fastestFirst.first { bits & $0.hciBit != 0 } }

    /// The procedure ends (LL_PHY_UPDATE_IND's instant): each direction on the fastest PHY its transmitter
    /// and receiver both accept.
    func completePHYUpdate(on link: SimulatedLink, initiator: LEConnectionComplete.Role, transmitter: UInt8, receiver: UInt8,
                           coding: CodedScheme) {
        guard let peer = models[link[initiator.other].controller] else { return }
        let before = [link.reportedDataLength(of: .central), link.reportedDataLength(of: .peripheral)]
        let current = (tx: link.phy(from: initiator), rx: link.phy(from: initiator.other))
        let tx = Self.fastest(transmitter & peer.defaultPHYs.receive) ?? current.tx
        let rx = Self.fastest(receiver & peer.defaultPHYs.transmit) ?? current.rx
        let changed = tx != current.tx || rx != current.rx
        link.centralPHY = initiator == .central ? (tx, rx) : (rx, tx)
        link.coding = coding
        for role in [LEConnectionComplete.Role.central, .peripheral] where role == initiator || changed {
            guard !link[role].ended, let model = models[link[role].controller] else { continue }
            emit(.le(.phyUpdateComplete(status: .success, handle: link[role].handle, txPHY: link.phy(from: role).rawValue,
                                        rxPHY: link.phy(from: role.other).rawValue)), to: model)
        }
        // On LE Coded the effective times are at least 2704 µs (Vol 6 Part B §4.5.10).
        reportDataLengthChange(on: link, before: before)
    }
}
