import HCIPackets

/// Legacy advertising: the commands that configure it, and advertising events at the configured interval
/// plus advDelay (Core v5.4 Vol 6 Part B §4.4.2.2.1), each heard by every scanning controller and answered
/// by a pending initiator that targets the advertiser. An advertising set with legacy PDUs
/// (`SimulatedAir+AdvertisingSets`) sends the same events.
extension SimulatedAir {
    /// LE Set Advertising Parameters (Vol 4 Part E §7.8.5).
    func setAdvertisingParameters(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetAdvertisingParameters
        guard p.count == 15 else { return complete(opcode, .invalidHCICommandParameters, model) }
        guard !model.advertising.enabled else { return complete(opcode, .commandDisallowed, model) }
        var r = ParameterReader(p)
        let intervalMin = r.u16(), intervalMax = r.u16(), typeByte = r.u8(), ownType = r.u8(), peerType = r.u8()
        let peer = r.address(), channelMap = r.u8(), filterPolicy = r.u8()
        guard let type = LegacyAdvertisingType(rawValue: typeByte), let own = AddressType(rawValue: ownType),
              let peerAddressType = AddressType(rawValue: peerType), peerType <= 1,
              channelMap & 0x07 != 0, channelMap <= 0x07, filterPolicy <= 0x03
        else { return complete(opcode, .invalidHCICommandParameters, model) }
        if type != .connectableDirectedHighDuty {
            guard (0x0020...0x4000).contains(intervalMin), (0x0020...0x4000).contains(intervalMax), intervalMin <= intervalMax else {
                return complete(opcode, .invalidHCICommandParameters, model)
            }
        }
        model.advertising.set = nil // legacy commands configure legacy advertising, without a set
        model.advertising.parameters = LESetAdvertisingParameters(
            intervalMin: intervalMin, intervalMax: intervalMax, type: type, ownAddressType: own,
            peerAddressType: peerAddressType, peerAddress: peer, channelMap: channelMap, filterPolicy: filterPolicy)
        complete(opcode, .success, model)
    }

    /// LE Set Advertising Data / LE Set Scan Response Data (§7.8.7, §7.8.8): a length and 31 octets.
    /// Allowed while advertising; the next advertising event carries the new data.
    func setAdvertisingData(_ p: [UInt8], _ model: ControllerModel, scanResponse: Bool) {
        let opcode = scanResponse ? HCIOpcode.leSetScanResponseData : .leSetAdvertisingData
        guard p.count == 32, p[0] <= 31 else { return complete(opcode, .invalidHCICommandParameters, model) }
        let data = Array(p[1..<(1 + Int(p[0]))])
        if scanResponse { model.advertising.scanResponse = data } else { model.advertising.data = data }
        complete(opcode, .success, model)
    }

    /// LE Set Advertising Enable (§7.8.9). Enabling while enabled changes nothing; advertising with a
    /// random own address needs one set (else 0x12).
    func setAdvertisingEnable(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetAdvertisingEnable
        guard p.count == 1, p[0] <= 1 else { return complete(opcode, .invalidHCICommandParameters, model) }
        if p[0] == 0 {
            stopAdvertising(model)
            return complete(opcode, .success, model)
        }
        guard !model.advertising.enabled else { return complete(opcode, .success, model) }
        guard advertisingAddress(model) != nil else {
            return complete(opcode, .invalidHCICommandParameters, model)
        }
        model.advertising.enabled = true
        let now = loop.now
        model.advertising.started = now
        complete(opcode, .success, model)
        scheduleAdvertisingEvent(model, at: now.advanced(by: randomDuration(upTo: timing.maximumAdvertisingDelay)))
    }

    func stopAdvertising(_ model: ControllerModel) {
        model.advertising.enabled = false
        model.advertising.started = nil
        if let timer = model.advertising.timer { loop.cancelTimer(timer) }
        model.advertising.timer = nil
        if let timer = model.advertising.set?.durationTimer { loop.cancelTimer(timer) }
        model.advertising.set?.durationTimer = nil
    }

    func scheduleAdvertisingEvent(_ model: ControllerModel, at instant: ContinuousClock.Instant) {
        let name = model.name
        let epoch = model.epoch
        model.advertising.timer = loop.schedule(at: instant) { [weak self] in
            self?.assumeIsolated { air in air.advertisingEvent(of: name, epoch: epoch) }
        }
    }

    /// One advertising event: reports to scanners (and scan responses to active ones), then a connection
    /// if a pending initiator targets this advertiser; else the next event after the interval + advDelay.
    func advertisingEvent(of name: String, epoch: UInt64) {
        guard let model = models[name], model.epoch == epoch, model.advertising.enabled else { return }
        model.advertising.timer = nil
        let now = loop.now
        let parameters = model.advertising.parameters
        guard let own = advertisingAddress(model) else { return stopAdvertising(model) }
        let highDuty = parameters.type == .connectableDirectedHighDuty
        if highDuty, let started = model.advertising.started, started.duration(to: now) >= timing.scaled(.milliseconds(1280)) {
            // §7.8.9: high duty cycle directed advertising ends after 1.28 s with Advertising Timeout.
            stopAdvertising(model)
            emit(connectionCompleteEvent(status: .advertisingTimeout, handle: 0, role: .peripheral, peerAddress: parameters.peerAddress,
                                         peerAddressType: parameters.peerAddressType, link: nil, for: model), to: model)
            return
        }
        chargeAdvertisingEvent(model)
        for scanner in modelsInOrder where scanner !== model && scanner.scanning.enabled {
            hear(model, own: own, by: scanner)
        }
        if let initiator = initiator(for: model, own: own) {
            establish(central: initiator, peripheral: model, peripheralAddress: own, at: now)
            return
        }
        guard countAdvertisingEvent(model) else { return }
        let interval = highDuty ? Duration.microseconds(3750) : Duration.slots(parameters.intervalMin)
        scheduleAdvertisingEvent(model, at: now.advanced(by: timing.scaled(interval) + randomDuration(upTo: timing.maximumAdvertisingDelay)))
    }

    /// A scanner hears one advertising event: an advertising report; when it scans actively and the
    /// advertising is scannable, a scan request (which a set that notifies reports) and, when scan response
    /// data is set, a scan response.
    func hear(_ advertiser: ControllerModel, own: (address: BDAddress, type: AddressType), by scanner: ControllerModel) {
        let scan = scanner.scanning.parameters
        // Filter Accept List policies never match: the list is always empty here.
        guard scan.filterPolicy == 0 || scan.filterPolicy == 2 else { return }
        let parameters = advertiser.advertising.parameters
        let directed = parameters.type == .connectableDirectedHighDuty || parameters.type == .connectableDirectedLowDuty
        if directed {
            guard let target = scanner.ownAddress(scan.ownAddressType), target.address == parameters.peerAddress,
                  target.type.isRandom == parameters.peerAddressType.isRandom else { return }
        }
        // The scan window covers this fraction of the time.
        guard chance(Double(scan.window) / Double(max(scan.interval, 1))) else { return }
        let legacyType: UInt8 = directed ? 0x01 : parameters.type.rawValue
        guard let eventType = AdvertisingReport.EventType(legacy: legacyType) else { return }
        report(AdvertisingReport(eventType: eventType, addressType: own.type, address: own.address,
                                 rssi: rssi(of: advertiser), data: directed ? [] : advertiser.advertising.data), to: scanner)
        let scannable = parameters.type == .connectableUndirected || parameters.type == .scannableUndirected
        // Scan requests from any scanner: the Filter Accept List policies (1, 3) match none.
        guard scan.type == .active, scannable, parameters.filterPolicy == 0 || parameters.filterPolicy == 2 else { return }
        scanRequested(of: advertiser, by: scanner)
        if !advertiser.advertising.scanResponse.isEmpty, let responseType = AdvertisingReport.EventType(legacy: 0x04) {
            report(AdvertisingReport(eventType: responseType, addressType: own.type, address: own.address,
                                     rssi: rssi(of: advertiser), data: advertiser.advertising.scanResponse), to: scanner)
        }
    }

    /// Sends one report, unless the scanner filters duplicates and has reported this advertiser already.
    func report(_ report: AdvertisingReport, to scanner: ControllerModel) {
        if scanner.scanning.filterDuplicates {
            let key = ControllerModel.SeenAdvertiser(address: report.address, addressType: report.addressType,
                                                     scanResponse: report.isScanResponse)
            guard scanner.scanning.seen.insert(key).inserted else { return }
        }
        emit(.le(.advertisingReports([report])), to: scanner)
    }

    /// The advertiser's configured RSSI with jitter, within the range HCI carries.
    func rssi(of advertiser: ControllerModel) -> Int8 {
        let jitter = max(0, timing.rssiJitter)
        let value = advertiser.configuration.rssi + (jitter == 0 ? 0 : randomInt(in: -jitter...jitter))
        return Int8(min(max(value, -127), 20))
    }

    // MARK: Scanning

    /// LE Set Scan Parameters (§7.8.10): not while scanning.
    func setScanParameters(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetScanParameters
        guard p.count == 7 else { return complete(opcode, .invalidHCICommandParameters, model) }
        guard !model.scanning.enabled else { return complete(opcode, .commandDisallowed, model) }
        var r = ParameterReader(p)
        let typeByte = r.u8(), interval = r.u16(), window = r.u16(), ownType = r.u8(), filterPolicy = r.u8()
        guard let type = LEScanType(rawValue: typeByte), let own = AddressType(rawValue: ownType),
              (0x0004...0x4000).contains(interval), (0x0004...0x4000).contains(window), window <= interval, filterPolicy <= 3
        else { return complete(opcode, .invalidHCICommandParameters, model) }
        model.scanning.parameters = LESetScanParameters(type: type, interval: interval, window: window, ownAddressType: own,
                                                        filterPolicy: filterPolicy)
        complete(opcode, .success, model)
    }

    /// LE Set Scan Enable (§7.8.11). Enabling while enabled only updates Filter_Duplicates; disabling
    /// forgets the advertisers seen.
    func setScanEnable(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leSetScanEnable
        guard p.count == 2, p[0] <= 1, p[1] <= 1 else { return complete(opcode, .invalidHCICommandParameters, model) }
        if p[0] == 1 {
            guard model.ownAddress(model.scanning.parameters.ownAddressType) != nil else {
                return complete(opcode, .invalidHCICommandParameters, model)
            }
            if !model.scanning.enabled { model.scanning.seen.removeAll() }
            model.scanning.enabled = true
            model.scanning.filterDuplicates = p[1] == 1
        } else {
            model.scanning.enabled = false
            model.scanning.seen.removeAll()
        }
        complete(opcode, .success, model)
    }
}
