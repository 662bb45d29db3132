/// What a peripheral advertises (Core v5.4 Vol 3 Part C §11 data, Vol 6 Part B §4.4.2 events).
public struct Advertisement: Sendable, Hashable {
    public var name: String?
    public var serviceUUIDs: [BluetoothUUID]
    public var manufacturerData: [UInt8]?
    public var manufacturer: CompanyIdentifier?
    public var appearance: UInt16?
    /// Advertising interval in 0.625 ms units (default 100 ms).
    public var interval: UInt16
    public var connectable: Bool
    /// Use an extended advertising set even when legacy would do (needs controller support).
    public var extended: Bool

    public init(name: String? = nil, serviceUUIDs: [BluetoothUUID] = [], manufacturer: CompanyIdentifier? = nil,
                manufacturerData: [UInt8]? = nil, appearance: UInt16? = nil, interval: UInt16 = 160,
                connectable: Bool = true, extended: Bool = false) {
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.manufacturer = manufacturer
        self.manufacturerData = manufacturerData
        self.appearance = appearance
        self.interval = interval
        self.connectable = connectable
        self.extended = extended
    }

    /// Advertising data and scan response: flags, service UUIDs and manufacturer data first; the name
    /// goes where it fits (the scan response when the advertising data is full).
    public func payloads(limit: Int = 31) -> (advertising: [UInt8], scanResponse: [UInt8]) {
        let manufacturerPair = manufacturer.map { ($0, manufacturerData ?? []) }
        var advertising = AdvertisingData.make(flags: [.leGeneralDiscoverable, .brEdrNotSupported], serviceUUIDs: serviceUUIDs,
                                               manufacturerData: manufacturerPair, appearance: appearance).encoded()
        var scanResponse: [UInt8] = []
        if let name {
            let withName = AdvertisingData.make(flags: [.leGeneralDiscoverable, .brEdrNotSupported], name: name, serviceUUIDs: serviceUUIDs,
                                                manufacturerData: manufacturerPair, appearance: appearance).encoded()
            if withName.count <= limit {
                advertising = withName
            } else {
                let available = max(0, limit - 2)
                let complete = name.utf8.count <= available
                let cut = complete ? name : String(decoding: Array(name.utf8.prefix(available)), as: UTF8.self)
                scanResponse = AdvertisingData.make(name: cut, completeName: complete).encoded()
            }
        }
        return (Array(advertising.prefix(limit)), Array(scanResponse.prefix(limit)))
    }
}

extension LEDevice {
    /// Starts advertising (legacy, or an extended set when asked and supported), connectable by default.
    public func startAdvertising(_ advertisement: Advertisement) async throws(RoleError) {
        let info = try await start()
        do {
            if advertising != nil { try await stopAdvertisingCommands(info: info) }
            if advertisement.extended && info.supportsExtendedAdvertising {
                let payloads = advertisement.payloads(limit: 251)
                var properties: LESetExtendedAdvertisingParameters.Properties = advertisement.connectable ? [.connectable] : []
                if payloads.scanResponse.isEmpty == false && !advertisement.connectable { properties.insert(.scannable) }
                _ = try await host.send(LESetExtendedAdvertisingParameters(handle: 0, properties: properties,
                                                                            intervalMin: UInt32(advertisement.interval), intervalMax: UInt32(advertisement.interval)))
                try await host.send(LESetExtendedAdvertisingData(handle: 0, data: payloads.advertising + payloads.scanResponse))
                try await host.send(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]))
            } else {
                let payloads = advertisement.payloads()
                let own = try await applyIdentityAddress()
                try await host.send(LESetAdvertisingParameters(intervalMin: advertisement.interval, intervalMax: advertisement.interval,
                                                               type: advertisement.connectable ? .connectableUndirected : .scannableUndirected,
                                                               ownAddressType: own))
                try await host.send(LESetAdvertisingData(payloads.advertising))
                try await host.send(LESetScanResponseData(payloads.scanResponse))
                try await host.send(LESetAdvertisingEnable(true))
            }
        } catch {
            throw .host(error)
        }
        advertising = advertisement
        lastAdvertisement = advertisement
    }

    /// Stops advertising.
    public func stopAdvertising() async throws(RoleError) {
        lastAdvertisement = nil
        guard advertising != nil else { return }
        let info = try await start()
        do {
            try await stopAdvertisingCommands(info: info)
        } catch {
            throw .host(error)
        }
        advertising = nil
        lastAdvertisement = nil
    }

    /// What is being advertised now, if anything.
    public var currentAdvertisement: Advertisement? { advertising }

    func stopAdvertisingCommands(info: ControllerInfo) async throws(HCIError) {
        if advertising?.extended == true && info.supportsExtendedAdvertising {
            try await host.send(LESetExtendedAdvertisingEnable(false, sets: []))
        } else {
            try await host.send(LESetAdvertisingEnable(false))
        }
    }

    func readvertiseIfWanted() async {
        guard readvertiseAfterDisconnection, let last = lastAdvertisement else { return }
        try? await startAdvertising(last)
    }
}
