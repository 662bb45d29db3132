/// Event encoders: the exact inverse of `HCIEvent(decoding:)` and the LE Meta subevent decoders, for
/// simulated controllers and tests (Core v5.4 Vol 4 Part E §7.7).
///
/// `HCIEvent(decoding: event.encoded()) == event` for every event whose fields fit what the wire
/// carries: handles in 12 bits, and for the cases where the decoder fills in fields, the values it
/// fills in (enhanced connection completes carry both resolvable private addresses, extended
/// advertising reports carry TX power, PHYs and SID). Event parameters are limited to 255 bytes by
/// the packet format; an event that encodes longer is the caller's mistake and its length byte wraps.
extension HCIEvent {
    /// The event as an HCI Event packet.
    public func encoded() -> HCIEventPacket {
        switch self {
        case .commandComplete(let count, let opcode, let returnParameters):
            var w = ByteWriter(capacity: 3 + returnParameters.count)
            w.u8(count); w.u16(opcode.rawValue); w.append(returnParameters)
            return HCIEventPacket(code: Code.commandComplete, parameters: w.bytes)
        case .commandStatus(let status, let count, let opcode):
            var w = ByteWriter(capacity: 4)
            w.u8(status.rawValue); w.u8(count); w.u16(opcode.rawValue)
            return HCIEventPacket(code: Code.commandStatus, parameters: w.bytes)
        case .disconnectionComplete(let complete):
            var w = ByteWriter(capacity: 4)
            w.u8(complete.status.rawValue); w.connectionHandle(complete.handle); w.u8(complete.reason.rawValue)
            return HCIEventPacket(code: Code.disconnectionComplete, parameters: w.bytes)
        case .numberOfCompletedPackets(let entries):
            var w = ByteWriter(capacity: 1 + 4 * entries.count)
            w.u8(UInt8(truncatingIfNeeded: entries.count))
            for entry in entries { w.connectionHandle(entry.handle); w.u16(entry.count) }
            return HCIEventPacket(code: Code.numberOfCompletedPackets, parameters: w.bytes)
        case .hardwareError(let code):
            return HCIEventPacket(code: Code.hardwareError, parameters: [code])
        case .encryptionChange(let status, let handle, let enabled):
            var w = ByteWriter(capacity: 4)
            w.u8(status.rawValue); w.connectionHandle(handle); w.u8(enabled)
            return HCIEventPacket(code: Code.encryptionChange, parameters: w.bytes)
        case .readRemoteVersionComplete(let version):
            var w = ByteWriter(capacity: 8)
            w.u8(version.status.rawValue); w.connectionHandle(version.handle); w.u8(version.version.rawValue)
            w.u16(version.manufacturer.rawValue); w.u16(version.subversion)
            return HCIEventPacket(code: Code.readRemoteVersionComplete, parameters: w.bytes)
        case .dataBufferOverflow(let linkType):
            return HCIEventPacket(code: Code.dataBufferOverflow, parameters: [linkType])
        case .encryptionKeyRefreshComplete(let status, let handle):
            var w = ByteWriter(capacity: 3)
            w.u8(status.rawValue); w.connectionHandle(handle)
            return HCIEventPacket(code: Code.encryptionKeyRefreshComplete, parameters: w.bytes)
        case .le(let event):
            return event.encoded()
        case .unknown(let code, let parameters):
            return HCIEventPacket(code: code, parameters: parameters)
        }
    }
}

extension LEMetaEvent {
    /// The subevent as an HCI_LE_Meta_Event (0x3E) packet, subevent code first.
    ///
    /// LE Connection Complete uses `LEConnectionComplete.subevent` (0x01, 0x0A or 0x29; any other value
    /// encodes as 0x01). Advertising reports encode as LE Advertising Report (0x02) when every report has
    /// `.legacy` in its event type with a legacy Event_Type equivalent, at most 31 data bytes and no
    /// extended-only field (TX power, PHYs, SID); otherwise as LE Extended Advertising Report (0x0D), where
    /// missing extended fields take the spec's "not available" values (PHY 1M/none, SID 0xFF, TX 127).
    public func encoded() -> HCIEventPacket {
        var w = ByteWriter(capacity: 32)
        switch self {
        case .connectionComplete(let complete):
            Self.encodeConnectionComplete(complete, into: &w)
        case .advertisingReports(let reports):
            if let legacyTypes = Self.legacyEventTypes(reports) {
                w.u8(Subevent.advertisingReport)
                w.u8(UInt8(truncatingIfNeeded: reports.count))
                for (report, type) in zip(reports, legacyTypes) {
                    w.u8(type); w.u8(report.addressType.rawValue); w.address(report.address)
                    w.u8(UInt8(report.data.count)); w.append(report.data); w.u8(UInt8(bitPattern: report.rssi))
                }
            } else {
                w.u8(Subevent.extendedAdvertisingReport)
                w.u8(UInt8(truncatingIfNeeded: reports.count))
                for report in reports {
                    let data = report.data.prefix(255)
                    w.u16(report.eventType.rawValue); w.u8(report.addressType.rawValue); w.address(report.address)
                    w.u8(report.primaryPHY ?? 0x01); w.u8(report.secondaryPHY ?? 0x00); w.u8(report.sid ?? 0xFF)
                    w.u8(UInt8(bitPattern: report.txPower ?? 127)); w.u8(UInt8(bitPattern: report.rssi))
                    w.u16(0) // Periodic_Advertising_Interval: none
                    w.u8(0); w.address(.zero) // Direct_Address_Type, Direct_Address: not directed (not kept by the decoder)
                    w.u8(UInt8(data.count)); w.append(data)
                }
            }
        case .connectionUpdateComplete(let status, let handle, let interval, let latency, let timeout):
            w.u8(Subevent.connectionUpdateComplete)
            w.u8(status.rawValue); w.connectionHandle(handle); w.u16(interval); w.u16(latency); w.u16(timeout)
        case .readRemoteFeaturesComplete(let status, let handle, let features):
            w.u8(Subevent.readRemoteFeaturesComplete)
            w.u8(status.rawValue); w.connectionHandle(handle); w.u64(features.rawValue)
        case .longTermKeyRequest(let handle, let random, let ediv):
            w.u8(Subevent.longTermKeyRequest)
            w.connectionHandle(handle); w.u64(random); w.u16(ediv)
        case .dataLengthChange(let handle, let maxTxOctets, let maxTxTime, let maxRxOctets, let maxRxTime):
            w.u8(Subevent.dataLengthChange)
            w.connectionHandle(handle); w.u16(maxTxOctets); w.u16(maxTxTime); w.u16(maxRxOctets); w.u16(maxRxTime)
        case .phyUpdateComplete(let status, let handle, let txPHY, let rxPHY):
            w.u8(Subevent.phyUpdateComplete)
            w.u8(status.rawValue); w.connectionHandle(handle); w.u8(txPHY); w.u8(rxPHY)
        case .scanTimeout:
            w.u8(Subevent.scanTimeout)
        case .advertisingSetTerminated(let status, let advertisingHandle, let connectionHandle, let completedEvents):
            w.u8(Subevent.advertisingSetTerminated)
            w.u8(status.rawValue); w.u8(advertisingHandle); w.connectionHandle(connectionHandle); w.u8(completedEvents)
        case .scanRequestReceived(let advertisingHandle, let scannerAddressType, let scannerAddress):
            w.u8(Subevent.scanRequestReceived)
            w.u8(advertisingHandle); w.u8(scannerAddressType.rawValue); w.address(scannerAddress)
        case .channelSelectionAlgorithm(let handle, let algorithm):
            w.u8(Subevent.channelSelectionAlgorithm)
            w.connectionHandle(handle); w.u8(algorithm)
        case .unknown(let subevent, let parameters):
            w.u8(subevent); w.append(parameters)
        }
        return HCIEventPacket(code: HCIEvent.Code.leMeta, parameters: w.bytes)
    }

    private static func encodeConnectionComplete(_ c: LEConnectionComplete, into w: inout ByteWriter) {
        let subevent: UInt8
        switch c.subevent {
        case Subevent.enhancedConnectionCompleteV1, Subevent.enhancedConnectionCompleteV2: subevent = c.subevent
        default: subevent = Subevent.connectionComplete
        }
        w.u8(subevent)
        w.u8(c.status.rawValue); w.connectionHandle(c.handle); w.u8(c.role.rawValue)
        w.u8(c.peerAddressType.rawValue); w.address(c.peerAddress)
        if subevent != Subevent.connectionComplete {
            w.address(c.localResolvablePrivateAddress ?? .zero)
            w.address(c.peerResolvablePrivateAddress ?? .zero)
        }
        w.u16(c.interval); w.u16(c.latency); w.u16(c.supervisionTimeout); w.u8(c.centralClockAccuracy)
        if subevent == Subevent.enhancedConnectionCompleteV2 {
            w.u8(c.advertisingHandle ?? 0xFF)
            w.u16(c.syncHandle ?? 0xFFFF)
        }
    }

    /// The legacy Event_Type of every report, or nil when any report needs the extended format.
    private static func legacyEventTypes(_ reports: [AdvertisingReport]) -> [UInt8]? {
        var types: [UInt8] = []
        types.reserveCapacity(reports.count)
        for report in reports {
            guard report.eventType.contains(.legacy), report.data.count <= 31,
                  report.txPower == nil, report.primaryPHY == nil, report.secondaryPHY == nil, report.sid == nil,
                  let type = (UInt8(0x00)...UInt8(0x04)).first(where: { AdvertisingReport.EventType(legacy: $0) == report.eventType })
            else { return nil }
            types.append(type)
        }
        return types
    }
}

extension RemoteVersion {
    /// Read Remote Version Information Complete parameters, for controllers that send the event (the
    /// struct's memberwise initializer is internal to this module; a `public init` in `HCIEvent.swift`
    /// would replace this).
    public static func make(status: HCIStatus, handle: UInt16, version: BluetoothVersion, manufacturer: CompanyIdentifier,
                            subversion: UInt16) -> RemoteVersion {
        RemoteVersion(status: status, handle: handle, version: version, manufacturer: manufacturer, subversion: subversion)
    }
}
