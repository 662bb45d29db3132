import HCIPackets
import SMP
/// Which advertisers a scan is looking for. Every criterion set must hold; an empty filter matches all.
public struct ScanFilter: Sendable, Hashable, CustomStringConvertible {
    public var address: BDAddress?
    /// Matches the complete local name exactly, or a shortened name that is a prefix of it.
    public var name: String?
    public var serviceUUID: BluetoothUUID?
    public var manufacturer: CompanyIdentifier?
    /// Reports weaker than this (dBm) do not match; RSSI 127 (not available) never fails this test.
    public var minimumRSSI: Int8?
    /// The IRK of the device at `address` (HCI order): a resolvable private address it resolves matches
    /// `address` too (Core v5.4 Vol 3 Part C §10.8.2.3). A scan fills it in from a bond with `address`.
    public var identityResolvingKey: [UInt8]?

    public init(address: BDAddress? = nil, name: String? = nil, serviceUUID: BluetoothUUID? = nil,
                manufacturer: CompanyIdentifier? = nil, minimumRSSI: Int8? = nil) {
        self.address = address
        self.name = name
        self.serviceUUID = serviceUUID
        self.manufacturer = manufacturer
        self.minimumRSSI = minimumRSSI
    }

    public var isEmpty: Bool {
        address == nil && name == nil && serviceUUID == nil && manufacturer == nil && minimumRSSI == nil
    }

    /// Whether a scan result (advertising data merged with any scan response) matches.
    public func matches(_ result: ScanResult) -> Bool {
        if let address, result.address != address {
            guard let irk = identityResolvingKey, ResolvablePrivateAddress.resolves(result.address, with: irk) else { return false }
        }
        if let minimumRSSI, result.rssi != 127, result.rssi < minimumRSSI { return false }
        let data = result.advertisingData
        if let name {
            guard let advertised = data.localName else { return false }
            if data.isCompleteName == false {
                if !name.hasPrefix(advertised) { return false }
            } else if advertised != name {
                return false
            }
        }
        if let serviceUUID, !data.serviceUUIDs.contains(serviceUUID), data.serviceData[serviceUUID] == nil { return false }
        if let manufacturer, !data.manufacturerData.contains(where: { $0.company == manufacturer }) { return false }
        return true
    }

    public var description: String {
        var parts: [String] = []
        if let address { parts.append("address \(address)") }
        if let name { parts.append("name \"\(name)\"") }
        if let serviceUUID { parts.append("service \(serviceUUID)") }
        if let manufacturer { parts.append("manufacturer \(manufacturer)") }
        if let minimumRSSI { parts.append("RSSI ≥ \(minimumRSSI) dBm") }
        return parts.isEmpty ? "any advertiser" : parts.joined(separator: ", ")
    }
}

/// What a scan learned about one advertiser.
public struct ScanResult: Sendable, Hashable {
    public var address: BDAddress
    public var addressType: AddressType
    /// The latest RSSI (dBm; 127 = not available).
    public var rssi: Int8
    /// Advertising data and scan response data, merged in the order received.
    public var advertisingData: AdvertisingData
    public var isConnectable: Bool
    /// When the first report arrived, from the start of the scan.
    public var firstSeen: Duration
    public var reportCount: Int
    /// Whether a scan response was received.
    public var hasScanResponse: Bool
    /// Whether it was seen through extended advertising (a non-legacy PDU).
    public var isExtended: Bool
}

/// How to scan (Core v5.4 Vol 6 Part B §4.4.3): always time-limited.
public struct ScanOptions: Sendable {
    public var filter: ScanFilter
    /// The scan's time limit (10 s by default, the figure Google's guidance uses).
    public var timeout: Duration
    public var active: Bool
    /// Stop as soon as a report matches the filter (the default when the filter is not empty).
    public var stopAtFirstMatch: Bool
    /// Scan interval and window in 0.625 ms units.
    public var interval: UInt16
    public var window: UInt16
    /// Force legacy scanning even when the controller supports extended scanning.
    public var forceLegacy: Bool

    public init(filter: ScanFilter = ScanFilter(), timeout: Duration = .seconds(10), active: Bool = true,
                stopAtFirstMatch: Bool? = nil, interval: UInt16 = 0x0060, window: UInt16 = 0x0030, forceLegacy: Bool = false) {
        self.filter = filter
        self.timeout = timeout
        self.active = active
        self.stopAtFirstMatch = stopAtFirstMatch ?? !filter.isEmpty
        self.interval = interval
        self.window = window
        self.forceLegacy = forceLegacy
    }
}
