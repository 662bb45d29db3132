import HCIPackets

extension SimulatedWorldDescription {
    /// One simulated controller: its identity, where it sits on the air (RSSI), its buffers and its faults.
    package struct Controller: Sendable, Hashable {
        /// The name in its moniker, `sim:NAME`.
        package var name: String
        /// The identity address: BD_ADDR when `addressType` is public; when random, a static random
        /// address the controller comes with (Read BD_ADDR then gives 00:00:00:00:00:00, and the address
        /// is the controller's random address after every power-on and Reset, as a factory static
        /// address that a host would otherwise set with LE Set Random Address).
        package var address: BDAddress
        /// `.public` or `.random`.
        package var addressType: AddressType
        /// The RSSI (dBm) other controllers measure from this one, before jitter.
        package var rssi: Int
        /// Faults to inject.
        package var faults: Set<SimulatedFault>
        /// Company_Identifier of Read Local Version Information (default 0x05F1, The Linux Foundation).
        package var manufacturer: CompanyIdentifier
        package var hciVersion: BluetoothVersion
        package var hciSubversion: UInt16
        package var lmpVersion: BluetoothVersion
        package var lmpSubversion: UInt16
        /// LE ACL buffers: LE_ACL_Data_Packet_Length (27…65535) × Total_Num_LE_ACL_Data_Packets (≥ 1).
        package var leBufferLength: UInt16
        package var leBufferCount: UInt8
        /// LE_Features of LE Read Local Supported Features (and what peers read remotely), before the bits
        /// `phys` and `maxDataLength` set (`reportedLEFeatures`).
        package var leFeatures: LEFeatures
        /// The longest data PDU payload it sends and receives, 27…251 octets (Core v5.4 Vol 6 Part B §4.5.10:
        /// supportedMaxTxOctets and supportedMaxRxOctets).
        package var maxDataLength: UInt16
        /// The PHYs its link layer supports; LE 1M always (Vol 6 Part A §3.2).
        package var phys: Set<RadioPHY>

        package init(name: String, address: BDAddress, addressType: AddressType = .public, rssi: Int = -55,
                    faults: Set<SimulatedFault> = [], manufacturer: CompanyIdentifier = CompanyIdentifier(0x05F1),
                    hciVersion: BluetoothVersion = BluetoothVersion(0x0D), hciSubversion: UInt16 = 0x0001,
                    lmpVersion: BluetoothVersion = BluetoothVersion(0x0D), lmpSubversion: UInt16 = 0x0001,
                    leBufferLength: UInt16 = 251, leBufferCount: UInt8 = 8,
                    leFeatures: LEFeatures = Controller.defaultLEFeatures, maxDataLength: UInt16 = 251,
                    phys: Set<RadioPHY> = Set(RadioPHY.allCases)) {
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
            self.maxDataLength = maxDataLength
            self.phys = phys
        }

        /// LE Encryption (bit 0) and Peripheral-initiated Features Exchange (bit 3): what this controller's
        /// link layer does.
        package static let defaultLEFeatures: LEFeatures = [.leEncryption, .peripheralInitiatedFeaturesExchange]

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
            if !(27...251).contains(maxDataLength) {
                problems.append("controller '\(name)': maxDataLength \(maxDataLength) is outside 27…251")
            }
            if !phys.contains(.le1M) { problems.append("controller '\(name)': phys must include 1M (every LE controller supports LE 1M)") }
            if leBufferCount < 1 { problems.append("controller '\(name)': LE buffer count must be at least 1") }
            return problems
        }
    }
}
