import HCIPackets

/// The LE encryption commands (Core v5.4 Vol 4 Part E §7.8.24–§7.8.26): the central's host starts the
/// procedure, the peripheral's host answers its LE Long Term Key Request. The procedure itself rides the
/// link's connection events (`advanceEncryption`).
extension SimulatedAir {
    /// LE Enable Encryption (§7.8.24): Command Status, then LL_ENC_REQ at the next event. Only the
    /// central may start encryption (Command Disallowed on the peripheral), one procedure at a time, and
    /// not on a link being terminated.
    func enableEncryption(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leEnableEncryption
        guard p.count == 28 else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16(), random = r.u64(), ediv = r.u16(), key = r.bytes(16)
        guard let (link, role) = link(of: model, handle: handle) else {
            return commandStatus(opcode, .unknownConnectionIdentifier, model)
        }
        guard role == .central, link.encryption == nil, link.termination == nil else {
            return commandStatus(opcode, .commandDisallowed, model)
        }
        link.encryption = SimulatedLink.Encryption(random: random, ediv: ediv, centralKey: key, refresh: link.isEncrypted)
        commandStatus(opcode, .success, model)
        scheduleConnectionEvent(link)
    }

    /// LE Long Term Key Request Reply (§7.8.25) and Negative Reply (§7.8.26): Command Complete with the
    /// handle; the answer rides the next event. Command Disallowed unless this controller is the
    /// peripheral of a link whose LE Long Term Key Request is unanswered.
    func longTermKeyReply(_ p: [UInt8], _ model: ControllerModel, negative: Bool) {
        let opcode: HCIOpcode = negative ? .leLongTermKeyRequestNegativeReply : .leLongTermKeyRequestReply
        guard p.count == (negative ? 2 : 18) else { return complete(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u16()
        let key = negative ? nil : r.bytes(16)
        // Status and Connection_Handle, whatever the status (§7.8.25).
        func answer(_ status: HCIStatus) {
            var w = ReturnParameterWriter()
            w.u8(status.rawValue); w.u16(handle)
            emit(.commandComplete(numCommandPackets: 1, opcode: opcode, returnParameters: w.bytes), to: model)
        }
        guard let (link, role) = link(of: model, handle: handle) else { return answer(.unknownConnectionIdentifier) }
        guard role == .peripheral, link.encryption?.phase == .awaitingKey else { return answer(.commandDisallowed) }
        link.encryption?.phase = .answered(key: key)
        answer(.success)
        scheduleConnectionEvent(link)
    }

    /// Whether the link of `controller`'s `handle` is encrypted; nil when there is no such link. For tests.
    func isEncrypted(_ controller: String, handle: UInt16) -> Bool? {
        guard let model = models[controller], let (link, _) = link(of: model, handle: handle) else { return nil }
        return link.isEncrypted
    }
}
