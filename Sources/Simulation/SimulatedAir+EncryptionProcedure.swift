import HCIPackets

/// The LE encryption start procedure on connection events (Core v5.4 Vol 6 Part B §5.1.3.1; on an
/// encrypted link wrapped in the pause procedure, §5.1.3.2), as the hosts see it (Vol 4 Part E):
///
/// - event n: LL_ENC_REQ; the peripheral's host gets LE Long Term Key Request (Rand, EDIV as sent) and the
///   central's LL response timer starts. ACL data stops both ways until the procedure ends.
/// - the peripheral's host answers; at the next event LL_START_ENC_REQ goes (for a Negative Reply,
///   LL_REJECT_EXT_IND: the central's host gets Encryption Change with PIN or Key Missing, 0x06).
/// - one event later the LL_START_ENC_RSPs are in: both hosts get Encryption Change (or Encryption Key
///   Refresh Complete on a link that was encrypted). If the peripheral's key is not the central's, the
///   first encrypted packet fails its MIC check and the link ends on both sides with 0x3D.
/// - no answer within 40 s (scaled): the link ends on both sides with LL Response Timeout (0x22).
extension SimulatedAir {
    /// The link's encryption procedure at connection event `counter`. False when the link ended.
    func advanceEncryption(_ link: SimulatedLink, at counter: Int) -> Bool {
        guard let procedure = link.encryption else { return true }
        let central = link.central, peripheral = link.peripheral
        switch procedure.phase {
        case .requested:
            let peripheralModel = models[peripheral.controller]
            if let peripheralModel, !peripheralModel.configuration.leFeatures.contains(.leEncryption) {
                // A link layer without encryption answers LL_ENC_REQ with LL_REJECT_EXT_IND.
                return rejectEncryption(link, .unsupportedRemoteFeature)
            }
            let id = link.id
            link.encryption?.responseTimer = loop.schedule(at: loop.now.advanced(by: timing.scaled(.seconds(40)))) { [weak self] in
                self?.assumeIsolated { air in air.encryptionTimedOut(id) }
            }
            link.encryption?.phase = .awaitingKey
            let request = HCIEvent.le(.longTermKeyRequest(handle: peripheral.handle, random: procedure.random, ediv: procedure.ediv))
            if let peripheralModel, !peripheral.ended {
                if peripheralModel.wants(request) {
                    emit(request, to: peripheralModel)
                } else {
                    link.encryption?.phase = .answered(key: nil) // a host that masked the event has no key to give
                }
            }
        case .awaitingKey:
            break
        case .answered(let key):
            guard let key else { return rejectEncryption(link, .pinOrKeyMissing) }
            link.encryption?.phase = .starting(key: key, sentAt: counter)
        case .starting(let key, let sentAt):
            guard counter > sentAt else { break }
            endEncryption(link)
            guard key == procedure.centralKey else {
                endSide(link, .central, reason: .connectionTerminatedDueToMICFailure)
                endSide(link, .peripheral, reason: .connectionTerminatedDueToMICFailure)
                destroy(link)
                return false
            }
            link.longTermKey = key
            for end in [central, peripheral] where !end.ended {
                guard let model = models[end.controller] else { continue }
                emit(procedure.refresh ? .encryptionKeyRefreshComplete(status: .success, handle: end.handle)
                                       : .encryptionChange(status: .success, handle: end.handle, enabled: 0x01), to: model)
            }
        }
        return true
    }

    /// The peripheral rejected LL_ENC_REQ: the central's host gets Encryption Change with `status`, the
    /// link stays up, unencrypted (a refused key refresh leaves the pause in place). Returns true.
    private func rejectEncryption(_ link: SimulatedLink, _ status: HCIStatus) -> Bool {
        endEncryption(link)
        link.longTermKey = nil
        let central = link.central
        if !central.ended, let model = models[central.controller] {
            emit(.encryptionChange(status: status, handle: central.handle, enabled: 0x00), to: model)
        }
        return true
    }

    /// The procedure is over (or abandoned): its response timer is cancelled and data flows again.
    func endEncryption(_ link: SimulatedLink) {
        if let timer = link.encryption?.responseTimer { loop.cancelTimer(timer) }
        link.encryption = nil
    }

    /// The central's LL response timer expired with the procedure unfinished: the link ends with LL
    /// Response Timeout (0x22) on both sides.
    func encryptionTimedOut(_ id: UInt64) {
        guard let link = links[id], link.encryption != nil else { return }
        link.encryption?.responseTimer = nil
        endEncryption(link)
        endSide(link, .central, reason: .llResponseTimeout)
        endSide(link, .peripheral, reason: .llResponseTimeout)
        destroy(link)
    }
}
