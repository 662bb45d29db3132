import HCI

extension SimulatedBenchDescription {
    /// One simulated controller: its identity, where it sits on the air (RSSI), its buffers and its faults.
    public struct Controller: Codable, Sendable, Hashable {
        /// The name in its moniker, `sim:NAME`.
        public var name: String
        /// The identity address: BD_ADDR when `addressType` is public; when random, a static random
        /// address the controller comes with (Read BD_ADDR then gives 00:00:00:00:00:00, and the address
        /// is the controller's random address after every power-on and Reset, as a factory static
        /// address that a host would otherwise set with LE Set Random Address).
        public var address: BDAddress
        /// `.public` or `.random`.
        public var addressType: AddressType
        /// The RSSI (dBm) other controllers measure from this one, before jitter.
        public var rssi: Int
        /// Faults to inject.
        public var faults: Set<SimulatedFault>
        /// Company_Identifier of Read Local Version Information (default 0x05F1, The Linux Foundation).
        public var manufacturer: CompanyIdentifier
        public var hciVersion: BluetoothVersion
        public var hciSubversion: UInt16
        public var lmpVersion: BluetoothVersion
        public var lmpSubversion: UInt16
        /// LE ACL buffers: LE_ACL_Data_Packet_Length (27…65535) × Total_Num_LE_ACL_Data_Packets (≥ 1).
        public var leBufferLength: UInt16
        public var leBufferCount: UInt8
        /// LE_Features of LE Read Local Supported Features (and what peers read remotely).
        public var leFeatures: LEFeatures

        public init(name: String, address: BDAddress, addressType: AddressType = .public, rssi: Int = -55,
                    faults: Set<SimulatedFault> = [], manufacturer: CompanyIdentifier = CompanyIdentifier(0x05F1),
                    hciVersion: BluetoothVersion = BluetoothVersion(0x0D), hciSubversion: UInt16 = 0x0001,
                    lmpVersion: BluetoothVersion = BluetoothVersion(0x0D), lmpSubversion: UInt16 = 0x0001,
                    leBufferLength: UInt16 = 251, leBufferCount: UInt8 = 8,
                    leFeatures: LEFeatures = Controller.defaultLEFeatures) {
            self.name = name
            self.address = address
            self.addressType = addressType
            self.rssi = rssi
            self.faults = faults
            self.manufacturer = manufacturer
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.lmpSubversion = lmpSubversion
            self.leBufferLength = leBufferLength
            self.leBufferCount = leBufferCount
            self.leFeatures = leFeatures
        }

        /// Peripheral-initiated Features Exchange (bit 3): what this controller's link layer does.
        public static let defaultLEFeatures = LEFeatures(bit: 3)

        enum CodingKeys: String, CodingKey {
            case name, address, addressType, rssi, faults, manufacturer, hciVersion, hciSubversion, lmpVersion, lmpSubversion
            case leBufferLength, leBufferCount, leFeatures
        }

        /// Decodes `name` and `address`; every other field is optional. `addressType` is "public" or
        /// "random" (or the HCI number), `faults` a list such as ["refusesConnections"].
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let name = try c.decode(String.self, forKey: .name)
            let address = try c.decode(BDAddress.self, forKey: .address)
            var addressType = AddressType.public
            if let text = try? c.decodeIfPresent(String.self, forKey: .addressType) {
                switch text.lowercased() {
                case "public": addressType = .public
                case "random": addressType = .random
                default:
                    throw DecodingError.dataCorruptedError(forKey: .addressType, in: c,
                                                           debugDescription: "addressType '\(text)' is neither 'public' nor 'random'")
                }
            } else if let number = try c.decodeIfPresent(AddressType.self, forKey: .addressType) {
                addressType = number
            }
            let d = Controller(name: name, address: address)
            self.init(name: name, address: address, addressType: addressType,
                      rssi: try c.decodeIfPresent(Int.self, forKey: .rssi) ?? d.rssi,
                      faults: try c.decodeIfPresent(Set<SimulatedFault>.self, forKey: .faults) ?? [],
                      manufacturer: try c.decodeIfPresent(CompanyIdentifier.self, forKey: .manufacturer) ?? d.manufacturer,
                      hciVersion: try c.decodeIfPresent(BluetoothVersion.self, forKey: .hciVersion) ?? d.hciVersion,
                      hciSubversion: try c.decodeIfPresent(UInt16.self, forKey: .hciSubversion) ?? d.hciSubversion,
                      lmpVersion: try c.decodeIfPresent(BluetoothVersion.self, forKey: .lmpVersion) ?? d.lmpVersion,
                      lmpSubversion: try c.decodeIfPresent(UInt16.self, forKey: .lmpSubversion) ?? d.lmpSubversion,
                      leBufferLength: try c.decodeIfPresent(UInt16.self, forKey: .leBufferLength) ?? d.leBufferLength,
                      leBufferCount: try c.decodeIfPresent(UInt8.self, forKey: .leBufferCount) ?? d.leBufferCount,
                      leFeatures: try c.decodeIfPresent(LEFeatures.self, forKey: .leFeatures) ?? d.leFeatures)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(address, forKey: .address)
            try c.encode(addressType.isRandom ? "random" : "public", forKey: .addressType)
            try c.encode(rssi, forKey: .rssi)
            try c.encode(faults.map(\.rawValue).sorted(), forKey: .faults)
            try c.encode(manufacturer, forKey: .manufacturer)
            try c.encode(hciVersion, forKey: .hciVersion)
            try c.encode(hciSubversion, forKey: .hciSubversion)
            try c.encode(lmpVersion, forKey: .lmpVersion)
            try c.encode(lmpSubversion, forKey: .lmpSubversion)
            try c.encode(leBufferLength, forKey: .leBufferLength)
            try c.encode(leBufferCount, forKey: .leBufferCount)
            try c.encode(leFeatures, forKey: .leFeatures)
        }

        /// What is wrong with this controller's description, if anything.
        var problems: [String] {
            var problems: [String] = []
            if name.isEmpty { problems.append("a controller has an empty name") }
            if name.contains(where: { $0.isWhitespace || $0 == "/" }) {
                problems.append("controller name '\(name)' has whitespace or '/'")
            }
            if addressType != .public && addressType != .random {
                problems.append("controller '\(name)': addressType must be public or random, not \(addressType)")
            }
            if addressType == .random && !(address.isStaticRandom && address.hasValidRandomPart) {
                problems.append("controller '\(name)': \(address) is not a static random address (top bits 11, random part neither all 0 nor all 1)")
            }
            if address == .zero { problems.append("controller '\(name)': address 00:00:00:00:00:00 means no address") }
            if !(-127...20).contains(rssi) { problems.append("controller '\(name)': RSSI \(rssi) dBm is outside -127…20") }
            if leBufferLength < 27 { problems.append("controller '\(name)': LE buffer length \(leBufferLength) is below the minimum of 27") }
            if leBufferCount < 1 { problems.append("controller '\(name)': LE buffer count must be at least 1") }
            return problems
        }
    }
}
