// Advertising data: a sequence of AD structures.

/// Advertising data, scan response data or extended inquiry response data:
/// a sequence of AD structures.
///
/// Core v5.4 Vol 3 Part C §11 gives the format; the Core Specification
/// Supplement Part A defines each AD type. The data has a significant part,
/// the AD structures, and may end in a non-significant part: a length octet
/// of zero ends the significant part early, and what follows it is ignored.
///
/// Parsing keeps every structure as it came, unknown types included, so
/// `encoded()` reproduces the significant part exactly.
public struct AdvertisingData: Hashable, Sendable, Codable {
    /// The AD structures, in order.
    public var structures: [ADStructure]

    /// Advertising data holding `structures`.
    public init(structures: [ADStructure] = []) {
        self.structures = structures
    }

    /// Parses advertising data.
    ///
    /// A zero length octet ends the data (the rest is the non-significant
    /// part). A length octet of 1 is a structure with a type and no data.
    /// A length that runs past the end throws, naming the offset of that
    /// length octet and the length.
    public init(parsing bytes: some Collection<UInt8>) throws(AdvertisingDataError) {
        let result = Self.parse(Array(bytes))
        if let error = result.error { throw error }
        self.structures = result.structures
    }

    /// Parses untrusted data without throwing: the structures before the
    /// first fault are kept, the rest is dropped. Never traps.
    public static func lenientlyParsed(_ bytes: some Collection<UInt8>) -> AdvertisingData {
        AdvertisingData(structures: parse(Array(bytes)).structures)
    }

    private static func parse(_ bytes: [UInt8]) -> (structures: [ADStructure], error: AdvertisingDataError?) {
        var structures: [ADStructure] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }  // early termination: the non-significant part follows
            let remaining = bytes.count - offset - 1
            guard length <= remaining else {
                let error = AdvertisingDataError(
                    offset: offset,
                    message: "length \(length) runs past the end (\(remaining) octet\(remaining == 1 ? "" : "s") remain)")
                return (structures, error)
            }
            let type = ADType(rawValue: bytes[offset + 1])
            let data = Array(bytes[(offset + 2)..<(offset + 1 + length)])
            structures.append(ADStructure(type: type, data: data))
            offset += 1 + length
        }
        return (structures, nil)
    }

    /// The significant part: each structure's length, type and data.
    public func encoded() -> [UInt8] {
        structures.flatMap { $0.encoded() }
    }

    /// The number of octets `encoded()` produces.
    public var encodedCount: Int {
        structures.reduce(0) { $0 + 2 + min($1.data.count, ADStructure.maximumDataCount) }
    }

    /// The data of the first structure of `type`, or nil.
    public func first(_ type: ADType) -> [UInt8]? {
        structures.first { $0.type == type }?.data
    }

    /// The data of every structure of `type`, in order.
    public func all(_ type: ADType) -> [[UInt8]] {
        structures.filter { $0.type == type }.map(\.data)
    }

    // MARK: - Building

    /// Builds advertising data from common fields, in this order: Flags, local
    /// name, service UUID lists, service data, manufacturer specific data,
    /// Tx Power Level, Appearance.
    ///
    /// - `name`: a Complete Local Name if `completeName`, else a Shortened
    ///   Local Name. A name over 248 UTF-8 octets is cut at a character
    ///   boundary and sent as shortened.
    /// - `serviceUUIDs`: each UUID in its shortest form, grouped into complete
    ///   lists of 16-, 32- and 128-bit UUIDs (split into more structures if a
    ///   list would not fit in one).
    /// - `serviceData`: one Service Data structure per entry, 16-, 32- or
    ///   128-bit by the UUID's shortest form.
    ///
    /// It does not check the 31-octet limit of legacy advertising; see
    /// `encodedCount`.
    public static func make(
        flags: AdvertisingFlags? = nil,
        name: String? = nil,
        completeName: Bool = true,
        serviceUUIDs: [BluetoothUUID] = [],
        serviceData: [(BluetoothUUID, [UInt8])] = [],
        manufacturerData: (CompanyIdentifier, [UInt8])? = nil,
        txPower: Int8? = nil,
        appearance: UInt16? = nil
    ) -> AdvertisingData {
        var structures: [ADStructure] = []
        if let flags {
            structures.append(ADStructure(type: .flags, data: [flags.rawValue]))
        }
        if let name {
            let (bytes, truncated) = truncatedUTF8(name, maximum: 248)
            let type: ADType = completeName && !truncated ? .completeLocalName : .shortenedLocalName
            structures.append(ADStructure(type: type, data: bytes))
        }
        let shortened = serviceUUIDs.map(\.shortened)
        for (width, type) in [(BluetoothUUID.Width.bits16, ADType.completeList16BitServiceUUIDs),
                              (.bits32, .completeList32BitServiceUUIDs),
                              (.bits128, .completeList128BitServiceUUIDs)] {
            var unique: [BluetoothUUID] = []
            for uuid in shortened where uuid.width == width && !unique.contains(uuid) {
                unique.append(uuid)
            }
            let perStructure = ADStructure.maximumDataCount / width.byteCount
            var start = 0
            while start < unique.count {
                let chunk = unique[start..<min(start + perStructure, unique.count)]
                structures.append(ADStructure(type: type, data: chunk.flatMap(\.littleEndianBytes)))
                start += perStructure
            }
        }
        for (uuid, payload) in serviceData {
            let short = uuid.shortened
            let type: ADType = switch short.width {
            case .bits16: .serviceData16
            case .bits32: .serviceData32
            case .bits128: .serviceData128
            }
            let data = short.littleEndianBytes + payload
            structures.append(ADStructure(type: type, data: Array(data.prefix(ADStructure.maximumDataCount))))
        }
        if let (company, payload) = manufacturerData {
            let data = [UInt8(truncatingIfNeeded: company.rawValue), UInt8(truncatingIfNeeded: company.rawValue >> 8)] + payload
            structures.append(ADStructure(type: .manufacturerSpecificData,
                                          data: Array(data.prefix(ADStructure.maximumDataCount))))
        }
        if let txPower {
            structures.append(ADStructure(type: .txPowerLevel, data: [UInt8(bitPattern: txPower)]))
        }
        if let appearance {
            structures.append(ADStructure(type: .appearance,
                                          data: [UInt8(truncatingIfNeeded: appearance), UInt8(truncatingIfNeeded: appearance >> 8)]))
        }
        return AdvertisingData(structures: structures)
    }

    /// The UTF-8 of `text`, cut to at most `maximum` octets at a character boundary.
    private static func truncatedUTF8(_ text: String, maximum: Int) -> (bytes: [UInt8], truncated: Bool) {
        let all = Array(text.utf8)
        guard all.count > maximum else { return (all, false) }
        var bytes: [UInt8] = []
        for character in text {
            let next = Array(String(character).utf8)
            if bytes.count + next.count > maximum { break }
            bytes += next
        }
        return (bytes, true)
    }

    // MARK: - Typed accessors

    /// The Flags (0x01) octet, if present and non-empty.
    public var flags: AdvertisingFlags? {
        guard let data = first(.flags), let octet = data.first else { return nil }
        return AdvertisingFlags(rawValue: octet)
    }

    /// The local name: the Complete Local Name if present, else the Shortened
    /// Local Name. Invalid UTF-8 is replaced with U+FFFD.
    public var localName: String? {
        guard let data = first(.completeLocalName) ?? first(.shortenedLocalName) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// true if there is a Complete Local Name, false if only a Shortened
    /// Local Name, nil if neither.
    public var isCompleteName: Bool? {
        if first(.completeLocalName) != nil { return true }
        if first(.shortenedLocalName) != nil { return false }
        return nil
    }

    /// The UUIDs of all service UUID lists (0x02…0x07), complete and
    /// incomplete, in order, without repeats. A trailing partial UUID in a list
    /// is ignored.
    public var serviceUUIDs: [BluetoothUUID] {
        var uuids: [BluetoothUUID] = []
        for structure in structures where structure.type.isServiceUUIDList {
            guard let width = structure.type.uuidWidth else { continue }
            for uuid in Self.uuids(in: structure.data[...], width: width) where !uuids.contains(uuid) {
                uuids.append(uuid)
            }
        }
        return uuids
    }

    /// Service Data (0x16, 0x20, 0x21) by service UUID; the first structure
    /// for a UUID wins. Structures too short to hold their UUID are ignored.
    public var serviceData: [BluetoothUUID: [UInt8]] {
        var result: [BluetoothUUID: [UInt8]] = [:]
        for structure in structures {
            guard [ADType.serviceData16, .serviceData32, .serviceData128].contains(structure.type),
                  let width = structure.type.uuidWidth,
                  structure.data.count >= width.byteCount,
                  let uuid = BluetoothUUID(littleEndian: structure.data.prefix(width.byteCount))
            else { continue }
            if result[uuid] == nil {
                result[uuid] = Array(structure.data.dropFirst(width.byteCount))
            }
        }
        return result
    }

    /// Every Manufacturer Specific Data (0xFF) structure: the company
    /// identifier (first two octets, little-endian) and the rest. Structures
    /// shorter than two octets are ignored.
    public var manufacturerData: [(company: CompanyIdentifier, data: [UInt8])] {
        all(.manufacturerSpecificData).compactMap { data in
            guard data.count >= 2 else { return nil }
            let company = CompanyIdentifier(rawValue: UInt16(data[0]) | UInt16(data[1]) << 8)
            return (company, Array(data.dropFirst(2)))
        }
    }

    /// The Tx Power Level (0x0A) in dBm, if present.
    public var txPowerLevel: Int8? {
        guard let octet = first(.txPowerLevel)?.first else { return nil }
        return Int8(bitPattern: octet)
    }

    /// The Appearance (0x19) value, if present with two octets
    /// (categories in Assigned Numbers §2.6).
    public var appearance: UInt16? {
        guard let data = first(.appearance), data.count >= 2 else { return nil }
        return UInt16(data[0]) | UInt16(data[1]) << 8
    }

    private static func uuids(in data: ArraySlice<UInt8>, width: BluetoothUUID.Width) -> [BluetoothUUID] {
        let size = width.byteCount
        var result: [BluetoothUUID] = []
        var start = data.startIndex
        while start + size <= data.endIndex {
            if let uuid = BluetoothUUID(littleEndian: data[start..<(start + size)]) {
                result.append(uuid)
            }
            start += size
        }
        return result
    }

    // MARK: - Summary

    /// A one-line description for logs, e.g.
    /// `name "Thermo", services [180F, 1809], manufacturer 0x0059 Nordic Semiconductor ASA 4 bytes`.
    /// "empty" for no structures.
    public var summary: String {
        var parts: [String] = []
        if let localName {
            parts.append((isCompleteName == false ? "short name " : "name ") + localName.debugDescription)
        }
        let uuids = serviceUUIDs
        if !uuids.isEmpty {
            parts.append("services [" + uuids.map(\.description).joined(separator: ", ") + "]")
        }
        for structure in structures where [ADType.serviceData16, .serviceData32, .serviceData128].contains(structure.type) {
            guard let width = structure.type.uuidWidth, structure.data.count >= width.byteCount,
                  let uuid = BluetoothUUID(littleEndian: structure.data.prefix(width.byteCount)) else { continue }
            parts.append("service data \(uuid) " + Self.count(structure.data.count - width.byteCount))
        }
        for (company, data) in manufacturerData {
            parts.append("manufacturer \(company) " + Self.count(data.count))
        }
        if let txPowerLevel {
            parts.append("tx power \(txPowerLevel) dBm")
        }
        if let appearance {
            parts.append("appearance " + HexFormat.prefixed(appearance, width: 4))
        }
        if let flags {
            parts.append("flags " + HexFormat.prefixed(flags.rawValue, width: 2))
        }
        let summarized: Set<ADType> = [
            .flags, .completeLocalName, .shortenedLocalName, .txPowerLevel, .appearance,
            .manufacturerSpecificData, .serviceData16, .serviceData32, .serviceData128,
            .incompleteList16BitServiceUUIDs, .completeList16BitServiceUUIDs,
            .incompleteList32BitServiceUUIDs, .completeList32BitServiceUUIDs,
            .incompleteList128BitServiceUUIDs, .completeList128BitServiceUUIDs,
        ]
        let others = structures.filter { !summarized.contains($0.type) }
        if !others.isEmpty {
            parts.append("other [" + others.map { HexFormat.prefixed($0.type.rawValue, width: 2) }.joined(separator: ", ") + "]")
        }
        return parts.isEmpty ? (structures.isEmpty ? "empty" : "no readable fields") : parts.joined(separator: ", ")
    }

    private static func count(_ n: Int) -> String {
        n == 1 ? "1 byte" : "\(n) bytes"
    }

    // MARK: - Codable

    /// Encodes as the hex text of `encoded()`, e.g. "020106".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(HexFormat.bytes(encoded()))
    }

    /// Decodes hex text and parses it strictly; bad hex or bad data is a
    /// data-corrupted error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let bytes = HexFormat.parseBytes(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not hex: \(text.debugDescription)")
        }
        do {
            self = try AdvertisingData(parsing: bytes)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }
}
