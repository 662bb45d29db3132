import HCIPackets

/// Initiating: LE Create Connection stays pending until the target's next connectable advertising event
/// (then both sides get LE Connection Complete and the advertiser stops advertising), or until LE Create
/// Connection Cancel (then LE Connection Complete with Unknown Connection Identifier, 0x02).
extension SimulatedAir {
    /// The most connections one simulated controller holds at once.
    static let maximumConnections = 32

    /// LE Create Connection (Core v5.4 Vol 4 Part E §7.8.12).
    func createConnection(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leCreateConnection
        guard p.count == 25 else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        guard model.initiation == nil else { return commandStatus(opcode, .commandDisallowed, model) }
        var r = ParameterReader(p)
        let scanInterval = r.u16(), scanWindow = r.u16(), filterPolicy = r.u8(), peerType = r.u8()
        let peer = r.address(), ownType = r.u8()
        let connection = r.connectionParameters()
        guard (0x0004...0x4000).contains(scanInterval), (0x0004...0x4000).contains(scanWindow), scanWindow <= scanInterval,
              filterPolicy <= 1, let peerAddressType = AddressType(rawValue: peerType), let own = AddressType(rawValue: ownType),
              connection.isValidForHCI, model.ownAddress(own) != nil
        else { return commandStatus(opcode, .invalidHCICommandParameters, model) }
        if connectedPeer(of: model, address: peer, type: peerAddressType) {
            return commandStatus(opcode, .connectionAlreadyExists, model)
        }
        guard model.links.count < Self.maximumConnections else { return commandStatus(opcode, .connectionLimitExceeded, model) }
        model.initiation = ControllerModel.Initiation(
            command: LECreateConnection(peerAddress: peer, peerAddressType: peerAddressType, ownAddressType: own,
                                        connection: connection, scanInterval: scanInterval, scanWindow: scanWindow,
                                        useFilterAcceptList: filterPolicy == 1),
            issued: loop.now)
        commandStatus(opcode, .success, model)
    }

    /// LE Create Connection Cancel (§7.8.13): Command Complete, then the pending connection completes
    /// with Unknown Connection Identifier (0x02).
    func createConnectionCancel(_ p: [UInt8], _ model: ControllerModel) {
        let opcode = HCIOpcode.leCreateConnectionCancel
        guard p.isEmpty else { return complete(opcode, .invalidHCICommandParameters, model) }
        guard let initiation = model.initiation else { return complete(opcode, .commandDisallowed, model) }
        model.initiation = nil
        complete(opcode, .success, model)
        emit(connectionCompleteEvent(status: .unknownConnectionIdentifier, handle: 0, role: .central,
                                     peerAddress: initiation.command.peerAddress, peerAddressType: initiation.command.peerAddressType,
                                     link: nil, for: model), to: model)
    }

    /// Whether `model` has a link whose peer transmits with this address.
    func connectedPeer(of model: ControllerModel, address: BDAddress, type: AddressType) -> Bool {
        for (handle, id) in model.links {
            guard let link = links[id], let role = link.role(of: model.name, handle: handle) else { continue }
            let peer = link[role.other]
            if peer.address == address && peer.addressType.isRandom == type.isRandom { return true }
        }
        return false
    }

    /// The pending initiator (the earliest) that connects at this advertising event, if any: the
    /// advertising is connectable for it, the advertiser accepts connections and has room, and the
    /// initiator targets the advertiser's address.
    func initiator(for advertiser: ControllerModel, own: (address: BDAddress, type: AddressType)) -> ControllerModel? {
        let parameters = advertiser.advertising.parameters
        guard parameters.type == .connectableUndirected || parameters.type == .connectableDirectedLowDuty
                || parameters.type == .connectableDirectedHighDuty,
              !advertiser.configuration.faults.contains(.refusesConnections),
              parameters.filterPolicy < 2, // connect requests from the (empty) Filter Accept List only
              advertiser.links.count < Self.maximumConnections
        else { return nil }
        let directed = parameters.type != .connectableUndirected
        var best: ControllerModel?
        for candidate in modelsInOrder where candidate !== advertiser {
            guard let initiation = candidate.initiation, !initiation.command.useFilterAcceptList,
                  initiation.command.peerAddress == own.address, initiation.command.peerAddressType.isRandom == own.type.isRandom,
                  let initiatorAddress = candidate.ownAddress(initiation.command.ownAddressType)
            else { continue }
            if directed {
                guard initiatorAddress.address == parameters.peerAddress,
                      initiatorAddress.type.isRandom == parameters.peerAddressType.isRandom else { continue }
            }
            if let current = best?.initiation, current.issued <= initiation.issued { continue }
            best = candidate
        }
        return best
    }

    /// CONNECT_IND at an advertising event: a link, LE Connection Complete on both sides (central role
    /// 0x00, peripheral 0x01), and the advertiser stops advertising (§7.8.9).
    func establish(central: ControllerModel, peripheral: ControllerModel, peripheralAddress: (address: BDAddress, type: AddressType),
                   at now: ContinuousClock.Instant) {
        guard let initiation = central.initiation,
              let centralAddress = central.ownAddress(initiation.command.ownAddressType),
              let centralHandle = freeHandle(central), let peripheralHandle = freeHandle(peripheral)
        else { return }
        central.initiation = nil
        stopAdvertising(peripheral)
        let id = nextLinkID
        nextLinkID += 1
        // The first connection event follows the 1.25 ms transmitWindowDelay after CONNECT_IND.
        let link = SimulatedLink(
            id: id,
            central: SimulatedLink.End(controller: central.name, handle: centralHandle, address: centralAddress.address,
                                       addressType: centralAddress.type),
            peripheral: SimulatedLink.End(controller: peripheral.name, handle: peripheralHandle, address: peripheralAddress.address,
                                          addressType: peripheralAddress.type),
            parameters: initiation.command.connection, timing: timing, anchor: now.advanced(by: timing.scaled(.microseconds(1250))))
        links[id] = link
        chargeConnectionEvents(link)
        central.links[centralHandle] = id
        peripheral.links[peripheralHandle] = id
        emit(connectionCompleteEvent(status: .success, handle: centralHandle, role: .central, peerAddress: peripheralAddress.address,
                                     peerAddressType: peripheralAddress.type, link: link, for: central), to: central)
        emit(connectionCompleteEvent(status: .success, handle: peripheralHandle, role: .peripheral, peerAddress: centralAddress.address,
                                     peerAddressType: centralAddress.type, link: link, for: peripheral), to: peripheral)
        startDataLength(on: link, central: central, peripheral: peripheral)
        // §7.7.65.18: an advertising set that ends in a connection says so after the connection's event.
        if let set = peripheral.advertising.set {
            emit(.le(.advertisingSetTerminated(status: .success, advertisingHandle: set.handle, connectionHandle: peripheralHandle,
                                               completedEvents: UInt8(clamping: set.completedEvents))), to: peripheral)
        }
    }

    /// LE Enhanced Connection Complete [v1] when the host unmasked it, else LE Connection Complete.
    func connectionCompleteEvent(status: HCIStatus, handle: UInt16, role: LEConnectionComplete.Role, peerAddress: BDAddress,
                                 peerAddressType: AddressType, link: SimulatedLink?, for model: ControllerModel) -> HCIEvent {
        var complete = LEConnectionComplete(
            status: status, handle: handle, role: role, peerAddressType: peerAddressType, peerAddress: peerAddress,
            interval: link?.intervalUnits ?? 0, latency: link?.latency ?? 0, supervisionTimeout: link?.timeoutUnits ?? 0,
            centralClockAccuracy: role == .peripheral && link != nil ? 0x05 : 0x00, // 50 ppm, reported to the peripheral only
            subevent: model.wantsEnhancedConnectionComplete ? LEMetaEvent.Subevent.enhancedConnectionCompleteV1
                                                            : LEMetaEvent.Subevent.connectionComplete)
        if model.wantsEnhancedConnectionComplete {
            complete.localResolvablePrivateAddress = .zero
            complete.peerResolvablePrivateAddress = .zero
        }
        return .le(.connectionComplete(complete))
    }

    /// The lowest free connection handle (0x0001…0x0EFF), or nil at the connection limit.
    func freeHandle(_ model: ControllerModel) -> UInt16? {
        guard model.links.count < Self.maximumConnections else { return nil }
        var handle: UInt16 = 0x0001
        while model.links[handle] != nil { handle += 1 }
        return handle <= 0x0EFF ? handle : nil
    }
}
