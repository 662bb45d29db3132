import HCI

/// A simulated accessory: our peripheral role running on one simulated controller, as a rig declares it.
public struct SimulatedAccessoryDescription: Codable, Sendable, Hashable {
    /// The simulated controller it runs on (a name in the bench's `controllers`).
    public var controller: String
    /// The advertised complete local name.
    public var name: String
    /// Ready-made GATT profiles it serves besides GAP and GATT ("battery", "heart-rate", …).
    public var services: [StandardProfile]
    public var advertisingIntervalMilliseconds: Double
    /// Time from power-on to advertising.
    public var bootDelayMilliseconds: Double
    public var faults: SimulatedAccessoryFaults

    public init(controller: String, name: String, services: [StandardProfile], advertisingIntervalMilliseconds: Double = 40,
                bootDelayMilliseconds: Double = 20, faults: SimulatedAccessoryFaults = SimulatedAccessoryFaults()) {
        self.controller = controller
        self.name = name
        self.services = services
        self.advertisingIntervalMilliseconds = advertisingIntervalMilliseconds
        self.bootDelayMilliseconds = bootDelayMilliseconds
        self.faults = faults
    }

    enum CodingKeys: String, CodingKey {
        case controller, name, services, advertisingIntervalMilliseconds, bootDelayMilliseconds, faults
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        controller = try c.decode(String.self, forKey: .controller)
        name = try c.decode(String.self, forKey: .name)
        let names = try c.decodeIfPresent([String].self, forKey: .services) ?? []
        services = []
        for (index, text) in names.enumerated() {
            guard let profile = StandardProfile(name: text) else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: c.codingPath + [CodingKeys.services, IndexKey(index)],
                    debugDescription: "unknown service '\(text)' (known: \(StandardProfile.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            services.append(profile)
        }
        advertisingIntervalMilliseconds = try c.decodeIfPresent(Double.self, forKey: .advertisingIntervalMilliseconds) ?? 40
        guard (20...10_240).contains(advertisingIntervalMilliseconds) else {
            throw DecodingError.dataCorruptedError(forKey: .advertisingIntervalMilliseconds, in: c,
                                                   debugDescription: "expected 20…10240 ms (Core v5.4 Vol 6 Part B §4.4.2.2), found \(advertisingIntervalMilliseconds)")
        }
        bootDelayMilliseconds = try c.decodeIfPresent(Double.self, forKey: .bootDelayMilliseconds) ?? 20
        guard bootDelayMilliseconds >= 0 && bootDelayMilliseconds <= 60_000 else {
            throw DecodingError.dataCorruptedError(forKey: .bootDelayMilliseconds, in: c, debugDescription: "expected 0…60000 ms, found \(bootDelayMilliseconds)")
        }
        faults = try c.decodeIfPresent(SimulatedAccessoryFaults.self, forKey: .faults) ?? SimulatedAccessoryFaults()
    }
}

/// Faults a simulated accessory can carry, so the harness can prove each standard transition catches them.
public struct SimulatedAccessoryFaults: Codable, Sendable, Hashable {
    /// It no longer advertises once it has been powered on more than this many times (counting the first).
    public var stopsAdvertisingAfterPowerCycles: Int?
    /// It drops every link this long after it forms (Disconnect, 0x13).
    public var dropsLinkAfterMilliseconds: Double?
    /// Its ATT server answers every request this late.
    public var slowATTMilliseconds: Double?
    /// Any write to its GATT database reboots it (links lost, advertising after the boot delay).
    public var rebootsOnWrite: Bool
    /// Its controller never accepts a connection (LE Create Connection stays pending).
    public var refusesConnections: Bool

    public init(stopsAdvertisingAfterPowerCycles: Int? = nil, dropsLinkAfterMilliseconds: Double? = nil,
                slowATTMilliseconds: Double? = nil, rebootsOnWrite: Bool = false, refusesConnections: Bool = false) {
        self.stopsAdvertisingAfterPowerCycles = stopsAdvertisingAfterPowerCycles
        self.dropsLinkAfterMilliseconds = dropsLinkAfterMilliseconds
        self.slowATTMilliseconds = slowATTMilliseconds
        self.rebootsOnWrite = rebootsOnWrite
        self.refusesConnections = refusesConnections
    }

    enum CodingKeys: String, CodingKey {
        case stopsAdvertisingAfterPowerCycles, dropsLinkAfterMilliseconds, slowATTMilliseconds, rebootsOnWrite, refusesConnections
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        stopsAdvertisingAfterPowerCycles = try c.decodeIfPresent(Int.self, forKey: .stopsAdvertisingAfterPowerCycles)
        if let value = stopsAdvertisingAfterPowerCycles, value < 1 {
            throw DecodingError.dataCorruptedError(forKey: .stopsAdvertisingAfterPowerCycles, in: c, debugDescription: "expected 1 or more, found \(value)")
        }
        dropsLinkAfterMilliseconds = try c.decodeIfPresent(Double.self, forKey: .dropsLinkAfterMilliseconds)
        slowATTMilliseconds = try c.decodeIfPresent(Double.self, forKey: .slowATTMilliseconds)
        for (key, value) in [(CodingKeys.dropsLinkAfterMilliseconds, dropsLinkAfterMilliseconds), (.slowATTMilliseconds, slowATTMilliseconds)] {
            if let value, !(value >= 0 && value <= 600_000) {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expected 0…600000 ms, found \(value)")
            }
        }
        rebootsOnWrite = try c.decodeIfPresent(Bool.self, forKey: .rebootsOnWrite) ?? false
        refusesConnections = try c.decodeIfPresent(Bool.self, forKey: .refusesConnections) ?? false
    }
}

/// An array index in a coding path.
struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) { stringValue = "\(index)"; intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.init(intValue) }
}
