// Bluetooth UUIDs in their 16-, 32- and 128-bit forms.

import Foundation

/// A Bluetooth UUID in any of its three forms.
///
/// Core v5.4 Vol 3 Part B §2.5.1 defines the 16- and 32-bit forms as
/// shorthand for 128-bit UUIDs built on the Bluetooth Base UUID,
/// 00000000-0000-1000-8000-00805F9B34FB: the short value replaces the first
/// 32 bits. Two UUIDs are equal (and hash alike) when their 128-bit values
/// are, so 16-bit 180F equals 0000180F-0000-1000-8000-00805F9B34FB; the form a
/// UUID was made with is kept for encoding (`littleEndianBytes`) and text.
///
/// 16-bit values are assigned in Assigned Numbers §3.4 (services),
/// §3.8 (characteristics), §3.7 (descriptors) and §3.5 (declarations).
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible, CodableAsText {
    /// The size a UUID was made with, which is the size it encodes to.
    public enum Width: Int, Sendable, Hashable, Codable {
        case bits16 = 16
        case bits32 = 32
        case bits128 = 128

        /// Octets in the encoded form: 2, 4 or 16.
        public var byteCount: Int { rawValue / 8 }
    }

    /// High 64 bits of the 128-bit value (the first 8 octets of the text form).
    private let high: UInt64
    /// Low 64 bits of the 128-bit value.
    private let low: UInt64
    /// The form this UUID was made with.
    public let width: Width

    private static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    private static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    private init(high: UInt64, low: UInt64, width: Width) {
        self.high = high
        self.low = low
        self.width = width
    }

    /// A 16-bit UUID, e.g. `BluetoothUUID(0x180F)` for the Battery service.
    public init(_ value: UInt16) {
        self.init(high: UInt64(value) << 32 | Self.baseHigh, low: Self.baseLow, width: .bits16)
    }

    /// A 32-bit UUID. Disfavored so that an integer literal,
    /// `BluetoothUUID(0x180F)`, makes a 16-bit UUID; write
    /// `BluetoothUUID(UInt32(…))` for the 32-bit form.
    @_disfavoredOverload
    public init(_ value: UInt32) {
        self.init(high: UInt64(value) << 32 | Self.baseHigh, low: Self.baseLow, width: .bits32)
    }

    /// A 128-bit UUID from a Foundation `UUID`.
    public init(_ uuid: UUID) {
        let t = uuid.uuid
        let bytes = [t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7, t.8, t.9, t.10, t.11, t.12, t.13, t.14, t.15]
        self.init(high: Self.word(bytes[0..<8]), low: Self.word(bytes[8..<16]), width: .bits128)
    }

    /// A 128-bit UUID from its two 64-bit halves (the text's first 16 digits, then the last 16).
    public init(high: UInt64, low: UInt64) {
        self.init(high: high, low: low, width: .bits128)
    }

    /// A 128-bit UUID from its 16 octets most significant first (text order);
    /// nil unless there are exactly 16.
    public init?(uuid128 bigEndianBytes: some Collection<UInt8>) {
        let bytes = Array(bigEndianBytes)
        guard bytes.count == 16 else { return nil }
        self.init(high: Self.word(bytes[0..<8]), low: Self.word(bytes[8..<16]), width: .bits128)
    }

    /// A UUID from its encoded form as it appears in AD structures and ATT
    /// PDUs: 2, 4 or 16 octets, least significant first. Any other length gives nil.
    public init?(littleEndian bytes: some Collection<UInt8>) {
        let reversed = Array(bytes).reversed().map { $0 }
        switch reversed.count {
        case 2:
            self.init(UInt16(Self.word(reversed[0..<2])))
        case 4:
            self.init(UInt32(Self.word(reversed[0..<4])))
        case 16:
            self.init(high: Self.word(reversed[0..<8]), low: Self.word(reversed[8..<16]), width: .bits128)
        default:
            return nil
        }
    }

    /// Parses "180F" or "0x180F" (16-bit), "0000180F" (32-bit),
    /// "0000180f-0000-1000-8000-00805f9b34fb" (128-bit, 8-4-4-4-12) or the
    /// same 32 digits without hyphens. Hex digits in either case; anything
    /// else gives nil.
    public init?(_ string: String) {
        var text = Substring(string)
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            text = text.dropFirst(2)
        }
        switch text.count {
        case 4:
            guard let value = HexFormat.parse(text) else { return nil }
            self.init(UInt16(truncatingIfNeeded: value))
        case 8:
            guard let value = HexFormat.parse(text) else { return nil }
            self.init(UInt32(truncatingIfNeeded: value))
        case 32, 36:
            guard string.count == text.count else { return nil }  // no 0x on 128-bit forms
            let digits: String
            if text.count == 36 {
                let groups = text.split(separator: "-", omittingEmptySubsequences: false)
                guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
                digits = groups.joined()
            } else {
                digits = String(text)
            }
            guard let bytes = HexFormat.parseBytes(digits), bytes.count == 16 else { return nil }
            self.init(high: Self.word(bytes[0..<8]), low: Self.word(bytes[8..<16]), width: .bits128)
        default:
            return nil
        }
    }

    // MARK: Values

    /// The 16 octets of the 128-bit value, most significant first (text order),
    /// expanding 16- and 32-bit forms with the Base UUID.
    public var uuid128: [UInt8] {
        Self.bytes(high, count: 8) + Self.bytes(low, count: 8)
    }

    /// The encoded form this UUID was made with, least significant first:
    /// 2 octets for 16-bit, 4 for 32-bit, 16 for 128-bit.
    public var littleEndianBytes: [UInt8] {
        switch width {
        case .bits16: Array(Self.bytes(high >> 32, count: 2).reversed())
        case .bits32: Array(Self.bytes(high >> 32, count: 4).reversed())
        case .bits128: Array(uuid128.reversed())
        }
    }

    /// Whether the 128-bit value is built on the Bluetooth Base UUID, so that
    /// a 32-bit (and maybe a 16-bit) form exists.
    public var isBasedOnBaseUUID: Bool {
        low == Self.baseLow && high & 0xFFFF_FFFF == Self.baseHigh
    }

    /// The 16-bit value, if the UUID has a 16-bit form (whatever form it was made with).
    public var uint16Value: UInt16? {
        guard isBasedOnBaseUUID, high >> 32 <= 0xFFFF else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// The 32-bit value, if the UUID has a 32-bit form (whatever form it was made with).
    public var uint32Value: UInt32? {
        guard isBasedOnBaseUUID else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// The same UUID in its shortest form: 16-bit if it has one, else 32-bit
    /// if it has one, else 128-bit.
    public var shortened: BluetoothUUID {
        if let value = uint16Value { return BluetoothUUID(value) }
        if let value = uint32Value { return BluetoothUUID(value) }
        return BluetoothUUID(high: high, low: low, width: .bits128)
    }

    /// The 128-bit value as a Foundation `UUID`.
    public var foundationUUID: UUID {
        let b = uuid128
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    // MARK: Text

    /// "180F" for a 16-bit UUID, "0000180F" for a 32-bit one, and the
    /// canonical uppercase 8-4-4-4-12 text for a 128-bit one.
    public var description: String {
        switch width {
        case .bits16:
            return HexFormat.digits(high >> 32, width: 4)
        case .bits32:
            return HexFormat.digits(high >> 32, width: 8)
        case .bits128:
            let digits = HexFormat.digits(high, width: 16) + HexFormat.digits(low, width: 16)
            var text = ""
            for (index, character) in digits.enumerated() {
                if [8, 12, 16, 20].contains(index) { text.append("-") }
                text.append(character)
            }
            return text
        }
    }

    /// The Assigned Numbers name of a well-known 16-bit service,
    /// characteristic, descriptor or declaration UUID (in any form), or nil.
    public var name: String? {
        guard let value = uint16Value else { return nil }
        return Self.knownNames[value]
    }

    // MARK: Equality, Codable

    public static func == (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool {
        lhs.high == rhs.high && lhs.low == rhs.low
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }

    /// Named in the decoding error when a JSON value is not this text form.
    public static let textKind = "a Bluetooth UUID"

    // MARK: Helpers

    private static func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    private static func bytes(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> UInt64((count - 1 - $0) * 8)) }
    }

    private static let knownNames: [UInt16: String] = [
        // Services (Assigned Numbers §3.4)
        0x1800: "Generic Access",
        0x1801: "Generic Attribute",
        0x1802: "Immediate Alert",
        0x1803: "Link Loss",
        0x1804: "Tx Power",
        0x1805: "Current Time",
        0x1808: "Glucose",
        0x1809: "Health Thermometer",
        0x180A: "Device Information",
        0x180D: "Heart Rate",
        0x180F: "Battery",
        0x1810: "Blood Pressure",
        0x1812: "Human Interface Device",
        0x1814: "Running Speed and Cadence",
        0x1816: "Cycling Speed and Cadence",
        0x1818: "Cycling Power",
        0x181A: "Environmental Sensing",
        0x181C: "User Data",
        0x181D: "Weight Scale",
        0x1826: "Fitness Machine",
        0x1827: "Mesh Provisioning",
        0x1828: "Mesh Proxy",
        // Declarations (Assigned Numbers §3.5)
        0x2800: "Primary Service",
        0x2801: "Secondary Service",
        0x2802: "Include",
        0x2803: "Characteristic",
        // Descriptors (Assigned Numbers §3.7)
        0x2900: "Characteristic Extended Properties",
        0x2901: "Characteristic User Description",
        0x2902: "Client Characteristic Configuration",
        0x2903: "Server Characteristic Configuration",
        0x2904: "Characteristic Presentation Format",
        0x2905: "Characteristic Aggregate Format",
        0x2908: "Report Reference",
        // Characteristics (Assigned Numbers §3.8)
        0x2A00: "Device Name",
        0x2A01: "Appearance",
        0x2A04: "Peripheral Preferred Connection Parameters",
        0x2A05: "Service Changed",
        0x2A19: "Battery Level",
        0x2A1C: "Temperature Measurement",
        0x2A1D: "Temperature Type",
        0x2A23: "System ID",
        0x2A24: "Model Number String",
        0x2A25: "Serial Number String",
        0x2A26: "Firmware Revision String",
        0x2A27: "Hardware Revision String",
        0x2A28: "Software Revision String",
        0x2A29: "Manufacturer Name String",
        0x2A37: "Heart Rate Measurement",
        0x2A38: "Body Sensor Location",
        0x2A39: "Heart Rate Control Point",
        0x2A4A: "HID Information",
        0x2A4B: "Report Map",
        0x2A4C: "HID Control Point",
        0x2A4D: "Report",
        0x2A4E: "Protocol Mode",
        0x2A50: "PnP ID",
        0x2AA6: "Central Address Resolution",
        0x2AC9: "Resolvable Private Address Only",
        0x2B29: "Client Supported Features",
        0x2B2A: "Database Hash",
        0x2B3A: "Server Supported Features",
    ]
}

// MARK: - Constants

extension BluetoothUUID {
    /// The Bluetooth Base UUID, 00000000-0000-1000-8000-00805F9B34FB.
    public static let base = BluetoothUUID(high: baseHigh, low: baseLow, width: .bits128)
    /// Generic Access service (0x1800).
    public static let genericAccess = BluetoothUUID(UInt16(0x1800))
    /// Generic Attribute service (0x1801).
    public static let genericAttribute = BluetoothUUID(UInt16(0x1801))
    /// Device Information service (0x180A).
    public static let deviceInformation = BluetoothUUID(UInt16(0x180A))
    /// Heart Rate service (0x180D).
    public static let heartRate = BluetoothUUID(UInt16(0x180D))
    /// Battery service (0x180F).
    public static let battery = BluetoothUUID(UInt16(0x180F))
    /// Health Thermometer service (0x1809).
    public static let healthThermometer = BluetoothUUID(UInt16(0x1809))
    /// Primary Service declaration (0x2800).
    public static let primaryService = BluetoothUUID(UInt16(0x2800))
    /// Secondary Service declaration (0x2801).
    public static let secondaryService = BluetoothUUID(UInt16(0x2801))
    /// Include declaration (0x2802).
    public static let include = BluetoothUUID(UInt16(0x2802))
    /// Characteristic declaration (0x2803).
    public static let characteristic = BluetoothUUID(UInt16(0x2803))
    /// Characteristic User Description descriptor (0x2901).
    public static let characteristicUserDescription = BluetoothUUID(UInt16(0x2901))
    /// Client Characteristic Configuration descriptor, the CCCD (0x2902).
    public static let clientCharacteristicConfiguration = BluetoothUUID(UInt16(0x2902))
    /// Device Name characteristic (0x2A00).
    public static let deviceName = BluetoothUUID(UInt16(0x2A00))
    /// Appearance characteristic (0x2A01).
    public static let appearance = BluetoothUUID(UInt16(0x2A01))
    /// Peripheral Preferred Connection Parameters characteristic (0x2A04).
    public static let peripheralPreferredConnectionParameters = BluetoothUUID(UInt16(0x2A04))
    /// Service Changed characteristic (0x2A05).
    public static let serviceChanged = BluetoothUUID(UInt16(0x2A05))
    /// Battery Level characteristic (0x2A19).
    public static let batteryLevel = BluetoothUUID(UInt16(0x2A19))
    /// Central Address Resolution characteristic (0x2AA6).
    public static let centralAddressResolution = BluetoothUUID(UInt16(0x2AA6))
    /// Client Supported Features characteristic (0x2B29).
    public static let clientSupportedFeatures = BluetoothUUID(UInt16(0x2B29))
    /// Database Hash characteristic (0x2B2A).
    public static let databaseHash = BluetoothUUID(UInt16(0x2B2A))
    /// Server Supported Features characteristic (0x2B3A).
    public static let serverSupportedFeatures = BluetoothUUID(UInt16(0x2B3A))
}
