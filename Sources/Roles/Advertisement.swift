import HCIPackets
import HostCore
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
    /// Advertise through an advertising set (the extended advertising commands, Core v5.4 Vol 4 Part E
    /// §7.8.53-§7.8.56) when the controller has them, even when legacy commands would do. The set sends
    /// legacy PDUs (every scanner hears them) unless the data needs more than 31 octets.
    public var extended: Bool
    /// Ask the controller for LE Scan Request Received on each scan request (Scan_Request_Notification_Enable,
    /// §7.8.53), seen through `LEDevice.scanRequests()`. Needs an advertising set, so it implies `extended`;
    /// a controller without extended advertising advertises legacy and reports none.
    public var scanRequestNotifications: Bool

    public init(name: String? = nil, serviceUUIDs: [BluetoothUUID] = [], manufacturer: CompanyIdentifier? = nil,
                manufacturerData: [UInt8]? = nil, appearance: UInt16? = nil, interval: UInt16 = 160,
                connectable: Bool = true, extended: Bool = false, scanRequestNotifications: Bool = false) {
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.manufacturer = manufacturer
        self.manufacturerData = manufacturerData
        self.appearance = appearance
        self.interval = interval
        self.connectable = connectable
        self.extended = extended
        self.scanRequestNotifications = scanRequestNotifications
    }

    /// Whether it goes through an advertising set on a controller with `info`.
    func usesAdvertisingSet(_ info: ControllerInfo) -> Bool {
        (extended || scanRequestNotifications) && info.supportsExtendedAdvertising
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
            if advertisement.usesAdvertisingSet(info) {
                try await startAdvertisingSet(advertisement)
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
        if advertising?.usesAdvertisingSet(info) == true {
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

extension LEDevice {
    /// Advertising set 0: legacy PDUs (ADV_IND, or ADV_SCAN_IND when not connectable) when the data fits
    /// 31 octets, else extended ones (connectable with the data in AUX_ADV_IND, or scannable with all of it
    /// in the scan response, §7.8.53's rule for scannable sets); our random address set on the set itself
    /// (LE Set Advertising Set Random Address, §7.8.52).
    func startAdvertisingSet(_ advertisement: Advertisement) async throws(HCIError) {
        let legacy = advertisement.payloads()
        let long = advertisement.payloads(limit: 251)
        let fits = legacy.advertising == long.advertising && legacy.scanResponse == long.scanResponse
        typealias Properties = LESetExtendedAdvertisingParameters.Properties
        let properties: Properties = fits ? (advertisement.connectable ? [.legacy, .connectable, .scannable] : [.legacy, .scannable])
                                          : (advertisement.connectable ? [.connectable] : [.scannable])
        let random = nextRandomAddress()
        var parameters = LESetExtendedAdvertisingParameters(handle: 0, properties: properties, intervalMin: UInt32(advertisement.interval),
                                                             intervalMax: UInt32(advertisement.interval), ownAddressType: random == nil ? .public : .random)
        parameters.scanRequestNotification = advertisement.scanRequestNotifications
        _ = try await host.send(parameters)
        if let random { try await host.send(LESetAdvertisingSetRandomAddress(handle: 0, address: random)) }
        if fits {
            try await host.send(LESetExtendedAdvertisingData(handle: 0, data: legacy.advertising))
            try await host.send(LESetExtendedScanResponseData(handle: 0, data: legacy.scanResponse))
        } else if advertisement.connectable {
            try await host.send(LESetExtendedAdvertisingData(handle: 0, data: long.advertising + long.scanResponse))
        } else {
            try await host.send(LESetExtendedScanResponseData(handle: 0, data: long.advertising + long.scanResponse))
        }
        try await host.send(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]))
    }
}
