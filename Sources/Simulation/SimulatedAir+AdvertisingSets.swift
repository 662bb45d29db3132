import HCIPackets

/// Extended advertising with legacy PDUs (Core v5.4 Vol 4 Part E §7.8.52-§7.8.61), for a controller whose
/// LE_Features has LE Extended Advertising: one advertising set whose events are the legacy ones of
/// `SimulatedAir+Advertising`, plus what only a set has — LE Scan Request Received for each scan request
/// when Scan_Request_Notification_Enable is set (§7.7.65.19), a Duration and Max_Extended_Advertising_Events
/// that end it with LE Advertising Set Terminated (§7.7.65.18), and LE Advertising Set Terminated after the
/// connection it ends in. Extended (non-legacy) PDUs get Unsupported Feature or Parameter Value (0x11).
extension SimulatedAir {
    /// The legacy PDU each legacy Advertising_Event_Properties value sends (§7.8.53, Table 7.2).
    static let legacyPDUs: [UInt16: LegacyAdvertisingType] = [
        0x13: .connectableUndirected, 0x15: .connectableDirectedLowDuty, 0x1D: .connectableDirectedHighDuty,
        0x12: .scannableUndirected, 0x10: .nonConnectableUndirected,
    ]

    func handleAdvertisingSetCommand(_ command: HCICommandPacket, _ model: ControllerModel) {
        let opcode = command.opcode, p = command.parameters
        guard model.configuration.leFeatures.contains(.leExtendedAdvertising) else { return complete(opcode, .unknownHCICommand, model) }
        switch opcode {
        case .leSetExtendedAdvertisingParameters: setExtendedAdvertisingParameters(p, model)
        case .leSetAdvertisingSetRandomAddress:
            guard p.count == 7 else { return complete(opcode, .invalidHCICommandParameters, model) }
            guard model.advertising.set?.handle == p[0] else { return complete(opcode, .unknownAdvertisingIdentifier, model) }
            // §7.8.52: not while the set advertises connectably.
            let connectable = model.advertising.parameters.type != .scannableUndirected && model.advertising.parameters.type != .nonConnectableUndirected
            guard !(model.advertising.enabled && connectable) else { return complete(opcode, .commandDisallowed, model) }
            var r = ParameterReader(Array(p.dropFirst()))
            model.advertising.set?.randomAddress = r.address()
            complete(opcode, .success, model)
        case .leSetExtendedAdvertisingData, .leSetExtendedScanResponseData:
            setExtendedAdvertisingData(p, model, scanResponse: opcode == .leSetExtendedScanResponseData)
        case .leSetExtendedAdvertisingEnable: setExtendedAdvertisingEnable(p, model)
        case .leReadNumberOfSupportedAdvertisingSets:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model, [1])
        case .leRemoveAdvertisingSet:
            guard p.count == 1 else { return complete(opcode, .invalidHCICommandParameters, model) }
            guard model.advertising.set?.handle == p[0] else { return complete(opcode, .unknownAdvertisingIdentifier, model) }
            guard !model.advertising.enabled else { return complete(opcode, .commandDisallowed, model) }
            model.advertising = ControllerModel.Advertising()
            complete(opcode, .success, model)
        case .leClearAdvertisingSets:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            guard !(model.advertising.enabled && model.advertising.set != nil) else { return complete(opcode, .commandDisallowed, model) }
            model.advertising = ControllerModel.Advertising()
            complete(opcode, .success, model)
        default:
            complete(opcode, .unknownHCICommand, model)
        }
    }

    /// LE Set Extended Advertising Parameters [v1] (§7.8.53): 25 octets; creates the set or changes it
    /// while it is disabled. Returns Selected_TX_Power (0 dBm).
    func setExtendedAdvertisingParameters(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetExtendedAdvertisingParameters
        guard p.count == 25 else { return complete(opcode, .invalidHCICommandParameters, model) }
        var r = ParameterReader(p)
        let handle = r.u8(), properties = r.u16()
        let intervalMin = UInt32(r.u16()) | UInt32(r.u8()) << 16, intervalMax = UInt32(r.u16()) | UInt32(r.u8()) << 16
        let channelMap = r.u8(), ownType = r.u8(), peerType = r.u8(), peer = r.address(), filterPolicy = r.u8()
        _ = r.u8() // Advertising_TX_Power: a preference; the air has no transmit power
        let primaryPHY = r.u8(), _ = r.u8(), secondaryPHY = r.u8(), sid = r.u8(), notify = r.u8()
        guard handle <= 0xEF, let own = AddressType(rawValue: ownType), let peerAddressType = AddressType(rawValue: peerType), peerType <= 1,
              channelMap & 0x07 != 0, channelMap <= 0x07, filterPolicy <= 0x03, [1, 3].contains(primaryPHY), (1...3).contains(secondaryPHY),
              sid <= 0x0F, notify <= 1
        else { return complete(opcode, .invalidHCICommandParameters, model) }
        guard properties & 0x10 != 0 else { return complete(opcode, .unsupportedFeatureOrParameterValue, model) }
        guard let type = Self.legacyPDUs[properties & 0x7F], primaryPHY == 1 else { return complete(opcode, .invalidHCICommandParameters, model) }
        if type != .connectableDirectedHighDuty {
            guard intervalMin >= 0x20, intervalMax >= 0x20, intervalMin <= intervalMax, intervalMax <= 0xFF_FFFF else {
                return complete(opcode, .invalidHCICommandParameters, model)
            }
        }
        if let set = model.advertising.set, set.handle != handle { return complete(opcode, .memoryCapacityExceeded, model) }
        guard !model.advertising.enabled else { return complete(opcode, .commandDisallowed, model) }
        var set = model.advertising.set ?? ControllerModel.AdvertisingSet(
            handle: handle, randomAddress: model.configuration.addressType.isRandom ? model.configuration.address : nil)
        set.scanRequestNotification = notify == 1
        model.advertising.set = set
        // Intervals past 0xFFFF slots (40.96 s) advertise every 40.96 s.
        model.advertising.parameters = LESetAdvertisingParameters(
            intervalMin: UInt16(clamping: intervalMin), intervalMax: UInt16(clamping: intervalMax), type: type, ownAddressType: own,
            peerAddressType: peerAddressType, peerAddress: peer, channelMap: channelMap, filterPolicy: filterPolicy)
        complete(opcode, .success, model, [0])
    }

    /// LE Set Extended Advertising Data / Scan Response Data (§7.8.54, §7.8.55): a set with legacy PDUs
    /// takes one complete fragment (Operation 0x03) of at most 31 octets, also while it advertises.
    func setExtendedAdvertisingData(_ p: [UInt8], _ model: ControllerModel, scanResponse: Bool) {
        let opcode = scanResponse ? HCIOpcode.leSetExtendedScanResponseData : .leSetExtendedAdvertisingData
        guard p.count >= 4, p.count == 4 + Int(p[3]), p[2] <= 1 else { return complete(opcode, .invalidHCICommandParameters, model) }
        guard model.advertising.set?.handle == p[0] else { return complete(opcode, .unknownAdvertisingIdentifier, model) }
        guard p[1] == 0x03, p[3] <= 31 else { return complete(opcode, .invalidHCICommandParameters, model) }
        let data = Array(p[4...])
        if scanResponse { model.advertising.scanResponse = data } else { model.advertising.data = data }
        complete(opcode, .success, model)
    }

    /// LE Set Extended Advertising Enable (§7.8.56): Enable, Num_Sets, then Advertising_Handle, Duration
    /// (10 ms units, 0: until disabled) and Max_Extended_Advertising_Events per set; disabling with no sets
    /// disables them all.
    func setExtendedAdvertisingEnable(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetExtendedAdvertisingEnable
        guard p.count >= 2, p[0] <= 1, p.count == 2 + 4 * Int(p[1]), !(p[0] == 1 && p[1] == 0) else {
            return complete(opcode, .invalidHCICommandParameters, model)
        }
        var r = ParameterReader(Array(p.dropFirst(2)))
        var entries: [(handle: UInt8, duration: UInt16, maximumEvents: UInt8)] = []
        for _ in 0..<Int(p[1]) { entries.append((r.u8(), r.u16(), r.u8())) }
        guard entries.allSatisfy({ $0.handle == model.advertising.set?.handle }), Set(entries.map(\.handle)).count == entries.count else {
            return complete(opcode, .unknownAdvertisingIdentifier, model)
        }
        if p[0] == 0 {
            if model.advertising.set != nil { stopAdvertising(model) }
            return complete(opcode, .success, model)
        }
        guard let entry = entries.first, advertisingAddress(model) != nil else { return complete(opcode, .invalidHCICommandParameters, model) }
        model.advertising.set?.maximumEvents = entry.maximumEvents
        model.advertising.set?.completedEvents = 0
        let wasEnabled = model.advertising.enabled
        if let timer = model.advertising.set?.durationTimer { loop.cancelTimer(timer) }
        model.advertising.set?.durationTimer = nil
        if entry.duration > 0 {
            let name = model.name, epoch = model.epoch
            model.advertising.set?.durationTimer = loop.schedule(at: loop.now.advanced(by: timing.scaled(.milliseconds(10 * Int(entry.duration))))) { [weak self] in
                self?.assumeIsolated { air in air.advertisingSetEnded(of: name, epoch: epoch, status: .advertisingTimeout) }
            }
        }
        complete(opcode, .success, model)
        guard !wasEnabled else { return }
        model.advertising.enabled = true
        let now = loop.now
        model.advertising.started = now
        scheduleAdvertisingEvent(model, at: now.advanced(by: randomDuration(upTo: timing.maximumAdvertisingDelay)))
    }

    /// The set's Duration ran out (Advertising Timeout) or it sent Max_Extended_Advertising_Events (Limit
    /// Reached): it stops, and the host hears LE Advertising Set Terminated.
    func advertisingSetEnded(of name: String, epoch: UInt64, status: HCIStatus) {
        guard let model = models[name], model.epoch == epoch, model.advertising.enabled, let set = model.advertising.set else { return }
        stopAdvertising(model)
        emit(.le(.advertisingSetTerminated(status: status, advertisingHandle: set.handle, connectionHandle: 0,
                                           completedEvents: UInt8(clamping: set.completedEvents))), to: model)
    }

    /// The address an advertiser sends with: its set's random address for a random Own_Address_Type (nil
    /// until the host set one), else what `ControllerModel.ownAddress` gives.
    func advertisingAddress(_ model: ControllerModel) -> (address: BDAddress, type: AddressType)? {
        let type = model.advertising.parameters.ownAddressType
        guard let set = model.advertising.set, type.isRandom else { return model.ownAddress(type) }
        return set.randomAddress.map { ($0, .random) }
    }

    /// An active scanner's SCAN_REQ reached a set that notifies: LE Scan Request Received, with the
    /// scanner's own address.
    func scanRequested(of advertiser: ControllerModel, by scanner: ControllerModel) {
        guard let set = advertiser.advertising.set, set.scanRequestNotification,
              let address = scanner.ownAddress(scanner.scanning.parameters.ownAddressType) else { return }
        emit(.le(.scanRequestReceived(advertisingHandle: set.handle, scannerAddressType: address.type, scannerAddress: address.address)), to: advertiser)
    }

    /// One advertising event of a set went out: counted, and the set ends at Max_Extended_Advertising_Events.
    /// Returns false when it ended.
    func countAdvertisingEvent(_ model: ControllerModel) -> Bool {
        guard let set = model.advertising.set else { return true }
        model.advertising.set?.completedEvents += 1
        guard set.maximumEvents > 0, set.completedEvents + 1 >= Int(set.maximumEvents) else { return true }
        advertisingSetEnded(of: model.name, epoch: model.epoch, status: .limitReached)
        return false
    }
}
