import HCIPackets

/// The Data Length Update procedure as a controller runs it (Core v5.4 Vol 6 Part B §4.5.10, §5.1.9; HCI
/// Vol 4 Part E §7.8.33–§7.8.35, §7.8.46, §7.7.65.7). Each side sends at most connMaxTxOctets/Time: its
/// host's LE Set Data Length, else its controller's suggested default, never above what the controller
/// supports. LL_LENGTH_REQ and LL_LENGTH_RSP ride connection events (the request at one, the answer at the
/// next); then each direction's effective length is min(the sender's connMaxTx, the receiver's connMaxRx =
/// its supported maximum), in octets and time, and both hosts hear LE Data Length Change when a value they
/// report changed. A controller whose suggested default exceeds 27 octets or 328 µs starts the procedure
/// itself when a link forms.
extension SimulatedAir {
    /// LE Set Data Length (§7.8.33): Command Complete with the handle, then the procedure.
    func setDataLength(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetDataLength
        guard p.count == 6 else { return complete(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16()
        let wanted = DataLength(octets: r.u16(), time: r.u16())
        guard wanted.isValidForHCI else { return complete(opcode, .invalidHCICommandParameters, model) }
        guard let (link, role) = link(of: model, handle: handle) else { return complete(opcode, .unknownConnectionIdentifier, model) }
        var w = ReturnParameterWriter()
        w.u16(handle)
        complete(opcode, .success, model, w.bytes)
        link[role].wantedDataLength = Self.capped(wanted, model)
        link.requests.append(SimulatedLink.Request(initiator: role, kind: .dataLength))
        scheduleConnectionEvent(link)
    }

    /// LE Read Suggested Default Data Length (§7.8.34) and LE Write Suggested Default Data Length (§7.8.35).
    func suggestedDefaultDataLength(_ opcode: HCIOpcode, _ p: [UInt8], _ model: ControllerModel) {
        var w = ReturnParameterWriter()
        if opcode == .leReadSuggestedDefaultDataLength {
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            w.u16(model.suggestedDataLength.octets); w.u16(model.suggestedDataLength.time)
            return complete(opcode, .success, model, w.bytes)
        }
        guard p.count == 4 else { return complete(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let suggested = DataLength(octets: r.u16(), time: r.u16())
        guard suggested.isValidForHCI else { return complete(opcode, .invalidHCICommandParameters, model) }
        model.suggestedDataLength = Self.capped(suggested, model)
        complete(opcode, .success, model)
    }

    /// LE Read Maximum Data Length (§7.8.46): what the controller supports, sending and receiving alike.
    func readMaximumDataLength(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leReadMaximumDataLength
        guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
        let supported = model.configuration.supportedDataLength
        var w = ReturnParameterWriter()
        for _ in 0..<2 { w.u16(supported.octets); w.u16(supported.time) }
        complete(opcode, .success, model, w.bytes)
    }

    /// A length no longer than `model`'s controller supports.
    static func capped(_ length: DataLength, _ model: ControllerModel) -> DataLength {
        let supported = model.configuration.supportedDataLength
        return DataLength(octets: min(length.octets, supported.octets), time: min(length.time, supported.time))
    }

    /// A new link: each side wants its controller's suggested default, and a side that wants more than the
    /// initial 27 octets / 328 µs starts the procedure at the first event.
    func startDataLength(on link: SimulatedLink, central: ControllerModel, peripheral: ControllerModel) {
        for (role, model) in [(LEConnectionComplete.Role.central, central), (.peripheral, peripheral)] {
            link[role].wantedDataLength = model.suggestedDataLength
            if model.suggestedDataLength != .initial {
                link.requests.append(SimulatedLink.Request(initiator: role, kind: .dataLength))
            }
        }
        scheduleConnectionEvent(link)
    }

    /// LL_LENGTH_RSP is in: each direction's effective length is the sender's connMaxTx within the
    /// receiver's connMaxRx (its supported maximum).
    func completeDataLengthUpdate(on link: SimulatedLink) {
        let before = [link.reportedDataLength(of: .central), link.reportedDataLength(of: .peripheral)]
        for role in [LEConnectionComplete.Role.central, .peripheral] {
            guard let receiver = models[link[role.other].controller] else { return }
            let wanted = link[role].wantedDataLength, receivable = receiver.configuration.supportedDataLength
            link[role].dataLength = DataLength(octets: min(wanted.octets, receivable.octets), time: min(wanted.time, receivable.time))
        }
        reportDataLengthChange(on: link, before: before)
    }

    /// LE Data Length Change to both hosts when the values they report differ from `before` (central's, then
    /// peripheral's).
    func reportDataLengthChange(on link: SimulatedLink, before: [[UInt16]]) {
        let after = [link.reportedDataLength(of: .central), link.reportedDataLength(of: .peripheral)]
        guard after != before else { return }
        for (index, role) in [LEConnectionComplete.Role.central, .peripheral].enumerated() {
            guard !link[role].ended, let model = models[link[role].controller] else { continue }
            let values = after[index]
            emit(.le(.dataLengthChange(handle: link[role].handle, maxTxOctets: values[0], maxTxTime: values[1],
                                       maxRxOctets: values[2], maxRxTime: values[3])), to: model)
        }
    }
}
