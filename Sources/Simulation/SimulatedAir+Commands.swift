import HCIPackets

/// The HCI commands a simulated controller implements (the subset `HCIHost` and the roles use), with
/// the status codes the Core spec gives for wrong states and bad parameters. Anything else gets Command
/// Complete with Unknown HCI Command (0x01); a command with the wrong parameter length gets Invalid HCI
/// Command Parameters (0x12) in the event the command normally completes with.
extension SimulatedAir {
    func handleCommand(_ command: HCICommandPacket, _ model: ControllerModel) {
        if model.configuration.faults.contains(.unresponsive) { return }
        let opcode = command.opcode
        let p = command.parameters
        var r = ParameterReader(p)
        let configuration = model.configuration
        switch opcode {
        // Controller & Baseband
        case .reset:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            reset(model)
            complete(opcode, .success, model)
        case .setEventMask:
            guard p.count == 8 else { return complete(opcode, .invalidHCICommandParameters, model) }
            model.eventMask = r.u64()
            complete(opcode, .success, model)
        case .setEventMaskPage2:
            guard p.count == 8 else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model)
        case .writeLEHostSupport:
            guard p.count == 2, p[0] <= 1 else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model)

        // Informational
        case .readLocalVersionInformation:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            var w = ReturnParameterWriter()
            w.u8(configuration.hciVersion.rawValue); w.u16(configuration.hciSubversion)
            w.u8(configuration.lmpVersion.rawValue); w.u16(configuration.manufacturer.rawValue); w.u16(configuration.lmpSubversion)
            complete(opcode, .success, model, w.bytes)
        case .readLocalSupportedCommands:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model, SupportedCommands.mask(for: configuration.reportedLEFeatures))
        case .readLocalSupportedFeatures:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            // LMP features page 0: BR/EDR Not Supported (bit 37), LE Supported (Controller) (bit 38).
            var w = ReturnParameterWriter()
            w.u64(1 << 37 | 1 << 38)
            complete(opcode, .success, model, w.bytes)
        case .readBufferSize:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            // LE only: no BR/EDR ACL or SCO buffers; the host uses the LE pool.
            complete(opcode, .success, model, [0, 0, 0, 0, 0, 0, 0])
        case .readBDADDR:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model, model.publicAddress.littleEndianBytes)

        // LE Controller: setup and reads
        case .leSetEventMask:
            guard p.count == 8 else { return complete(opcode, .invalidHCICommandParameters, model) }
            model.leEventMask = r.u64()
            complete(opcode, .success, model)
        case .leReadBufferSize:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            var w = ReturnParameterWriter()
            w.u16(configuration.leBufferLength); w.u8(configuration.leBufferCount)
            complete(opcode, .success, model, w.bytes)
        case .leReadLocalSupportedFeatures:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model, configuration.reportedLEFeatures.littleEndianBytes)
        case .leReadAdvertisingPhysicalChannelTxPower:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model, [0]) // 0 dBm
        case .leReadFilterAcceptListSize:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            complete(opcode, .success, model, [0]) // no Filter Accept List: policies that need it never match
        case .leRand:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            var w = ReturnParameterWriter()
            w.u64(random.next())
            complete(opcode, .success, model, w.bytes)
        case .leReadSupportedStates:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            var w = ReturnParameterWriter()
            w.u64(0x0000_03FF_FFFF_FFFF) // every state and combination of Core 4.1–5.x
            complete(opcode, .success, model, w.bytes)
        case .leReadMaximumAdvertisingDataLength:
            guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
            var w = ReturnParameterWriter()
            w.u16(31) // legacy PDUs only, also from an advertising set
            complete(opcode, .success, model, w.bytes)
        case .leSetRandomAddress:
            guard p.count == 6 else { return complete(opcode, .invalidHCICommandParameters, model) }
            // §7.8.4: not while legacy advertising, scanning or initiating is enabled.
            guard !model.advertising.enabled, !model.scanning.enabled, model.initiation == nil else {
                return complete(opcode, .commandDisallowed, model)
            }
            model.randomAddress = r.address()
            complete(opcode, .success, model)

        // Advertising, scanning, connections
        case .leSetAdvertisingParameters: setAdvertisingParameters(p, model)
        case .leSetAdvertisingData: setAdvertisingData(p, model, scanResponse: false)
        case .leSetScanResponseData: setAdvertisingData(p, model, scanResponse: true)
        case .leSetAdvertisingEnable: setAdvertisingEnable(p, model)
        case .leSetExtendedAdvertisingParameters, .leSetAdvertisingSetRandomAddress, .leSetExtendedAdvertisingData,
             .leSetExtendedScanResponseData, .leSetExtendedAdvertisingEnable, .leReadNumberOfSupportedAdvertisingSets,
             .leRemoveAdvertisingSet, .leClearAdvertisingSets:
            handleAdvertisingSetCommand(command, model)
        case .leSetScanParameters: setScanParameters(p, model)
        case .leSetScanEnable: setScanEnable(p, model)
        case .leCreateConnection: createConnection(p, model)
        case .leCreateConnectionCancel: createConnectionCancel(p, model)
        case .disconnect: disconnect(p, model)
        case .leConnectionUpdate: connectionUpdate(p, model)
        case .leSetPHY: setPHY(p, model)
        case .leSetDefaultPHY: setDefaultPHY(p, model)
        case .leReadPHY: readPHY(p, model)
        case .leSetDataLength: setDataLength(p, model)
        case .leReadSuggestedDefaultDataLength, .leWriteSuggestedDefaultDataLength: suggestedDefaultDataLength(opcode, p, model)
        case .leReadMaximumDataLength: readMaximumDataLength(p, model)
        case .leReadRemoteFeatures: remoteRequest(.features, opcode: opcode, p, model)
        case .readRemoteVersionInformation: remoteRequest(.version, opcode: opcode, p, model)

        // Encryption
        case .leEncrypt:
            guard p.count == 32 else { return complete(opcode, .invalidHCICommandParameters, model) }
            guard let encrypted = simulatedLEEncrypt(key: Array(p[0..<16]), plaintext: Array(p[16..<32])) else {
                return complete(opcode, .unsupportedFeatureOrParameterValue, model)
            }
            complete(opcode, .success, model, encrypted)
        case .leEnableEncryption: enableEncryption(p, model)
        case .leLongTermKeyRequestReply: longTermKeyReply(p, model, negative: false)
        case .leLongTermKeyRequestNegativeReply: longTermKeyReply(p, model, negative: true)

        default:
            complete(opcode, .unknownHCICommand, model)
        }
    }

    /// HCI Reset (§7.3.2): every link is dropped without a Disconnection Complete (its peers time out),
    /// advertising, scanning and initiating stop silently, and every setting returns to its default.
    func reset(_ model: ControllerModel) {
        stopAdvertising(model)
        dropLinks(of: model)
        model.resetState()
    }
}
