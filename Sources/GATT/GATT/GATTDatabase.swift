// A GATT server's attribute database, built in code.

import Synchronization
import HCIPackets

/// The attributes a GATT server exposes (Core v5.4 Vol 3 Part G §3), laid out
/// from services in order with handles from 0x0001.
///
/// ```swift
/// let database = try GATTDatabase(services: [
///     .gap(name: "Thermo", appearance: 0x0300), .gatt(), .battery(level: 90), .healthThermometer(),
/// ])
/// ```
///
/// The layout is fixed once built; stored values change through writes and
/// `setValue(_:at:)` and are shared by every connection. Client Characteristic
/// Configuration descriptors are per connection and live in each `ATTServer`.
/// Thread-safe: the value store is behind a `Mutex`.
public final class GATTDatabase: Sendable {
    /// The attributes, `table[i].handle == i + 1`.
    let table: [GATTAttribute]
    private let store: Mutex<[UInt16: [UInt8]]>
    /// The Database Hash (Vol 3 Part G §7.3): AES-CMAC, zero key, over the declarations.
    public let hash: [UInt8]
    /// The services, characteristics and descriptors, as discovery would find them.
    public let serviceTree: GATTServiceTree

    /// Lays out `services` in order. Throws when an include names a service not
    /// in the list, a stored value is too long, or there are more than 65535 attributes.
    public init(services: [GATTService]) throws(GATTDatabaseError) {
        let total = services.reduce(0) { $0 + $1.attributeCount }
        guard total <= 0xFFFF else { throw .tooManyAttributes(total) }

        // First pass: every service's handle range, so includes can point forwards.
        var ranges: [(start: UInt16, end: UInt16)] = []
        var next = 1
        for service in services {
            let start = next
            next += service.attributeCount
            ranges.append((UInt16(start), UInt16(next - 1)))
        }

        var table: [GATTAttribute] = []
        table.reserveCapacity(total)
        var initial: [UInt16: [UInt8]] = [:]
        func nextHandle() -> UInt16 { UInt16(table.count + 1) }

        for (index, service) in services.enumerated() {
            let range = ranges[index]
            table.append(GATTAttribute(
                handle: nextHandle(), type: service.isPrimary ? .primaryService : .secondaryService,
                permissions: .read, maximumLength: 16, role: .service(endHandle: range.end, isPrimary: service.isPrimary),
                source: .fixed(service.uuid.attBytes)))
            for included in service.includes {
                guard let target = services.firstIndex(where: { $0.uuid == included }) else {
                    throw .unknownInclude(service: service.uuid, included: included)
                }
                var writer = ByteWriter(capacity: 6)
                writer.u16(ranges[target].start)
                writer.u16(ranges[target].end)
                // Vol 3 Part G §3.2: the UUID is present only when it is a 16-bit UUID.
                if services[target].uuid.width == .bits16 { writer.append(services[target].uuid.attBytes) }
                table.append(GATTAttribute(handle: nextHandle(), type: .include, permissions: .read,
                                           maximumLength: 6, role: .include, source: .fixed(writer.bytes)))
            }
            for characteristic in service.characteristics {
                let declarationHandle = nextHandle()
                let valueHandle = declarationHandle + 1
                var declaration = ByteWriter(capacity: 19)
                declaration.u8(characteristic.declaredProperties.rawValue)
                declaration.u16(valueHandle)
                declaration.append(characteristic.uuid.attBytes)
                table.append(GATTAttribute(handle: declarationHandle, type: .characteristic, permissions: .read,
                                           maximumLength: 19, role: .characteristicDeclaration,
                                           source: .fixed(declaration.bytes)))
                let source = try Self.source(characteristic.value, uuid: characteristic.uuid,
                                             maximum: characteristic.maximumLength, handle: valueHandle, store: &initial)
                table.append(GATTAttribute(handle: valueHandle, type: characteristic.uuid,
                                           permissions: characteristic.permissions,
                                           maximumLength: min(512, max(0, characteristic.maximumLength)),
                                           role: .characteristicValue(properties: characteristic.declaredProperties), source: source))
                if characteristic.hasExtendedPropertiesDescriptor {
                    var bits = ByteWriter(capacity: 2)
                    bits.u16(characteristic.extendedProperties)
                    table.append(GATTAttribute(handle: nextHandle(), type: BluetoothUUID(UInt16(0x2900)),
                                               permissions: .read, maximumLength: 2, role: .descriptor,
                                               source: .fixed(bits.bytes)))
                }
                if characteristic.hasClientConfiguration {
                    table.append(GATTAttribute(handle: nextHandle(), type: .clientCharacteristicConfiguration,
                                               permissions: [.read, .write], maximumLength: 2,
                                               role: .clientConfiguration(valueHandle: valueHandle,
                                                                          properties: characteristic.properties),
                                               source: .clientConfiguration))
                }
                for descriptor in characteristic.listedDescriptors {
                    let handle = nextHandle()
                    let source = try Self.source(descriptor.value, uuid: descriptor.uuid,
                                                 maximum: descriptor.maximumLength, handle: handle, store: &initial)
                    table.append(GATTAttribute(handle: handle, type: descriptor.uuid, permissions: descriptor.permissions,
                                               maximumLength: min(512, max(0, descriptor.maximumLength)), role: .descriptor,
                                               source: source))
                }
            }
        }
        self.table = table
        self.store = Mutex(initial)
        self.hash = Self.computeHash(table)
        self.serviceTree = Self.buildTree(table, hash: hash)
    }

    private static func source(_ value: GATTValue, uuid: BluetoothUUID, maximum: Int, handle: UInt16,
                               store: inout [UInt16: [UInt8]]) throws(GATTDatabaseError) -> GATTAttribute.Source {
        switch value {
        case .bytes(let bytes):
            let limit = min(512, max(0, maximum))
            guard bytes.count <= limit else { throw .valueTooLong(uuid: uuid, length: bytes.count, maximum: limit) }
            store[handle] = bytes
            return .stored
        case .handlers(let read, let write):
            return .handlers(read: read, write: write)
        case .databaseHash:
            return .databaseHash
        }
    }

    // MARK: Queries

    /// The number of attributes; the last handle.
    public var attributeCount: Int { table.count }

    /// The attribute at `handle`, or nil when there is none.
    func attribute(_ handle: UInt16) -> GATTAttribute? {
        let index = Int(handle) - 1
        return table.indices.contains(index) ? table[index] : nil
    }

    /// The attributes with handles in `start...end` (empty when the range is empty or past the end).
    func attributes(from start: UInt16, through end: UInt16) -> ArraySlice<GATTAttribute> {
        let lower = max(Int(start), 1) - 1
        let upper = min(Int(end), table.count)
        guard lower < upper else { return [] }
        return table[lower..<upper]
    }

    /// The type (UUID) of the attribute at `handle`.
    public func type(at handle: UInt16) -> BluetoothUUID? { attribute(handle)?.type }

    /// The permissions of the attribute at `handle`.
    public func permissions(at handle: UInt16) -> GATTPermissions? { attribute(handle)?.permissions }

    /// The handle of the value of the first characteristic `uuid` (in the first service
    /// `service`, when given), or nil.
    public func valueHandle(of uuid: BluetoothUUID, in service: BluetoothUUID? = nil) -> UInt16? {
        for entry in serviceTree.services where service == nil || entry.uuid == service {
            if let characteristic = entry.characteristics.first(where: { $0.uuid == uuid }) {
                return characteristic.valueHandle
            }
        }
        return nil
    }

    /// The handle of the Client Characteristic Configuration descriptor of the
    /// characteristic whose value is at `valueHandle`, or nil when it has none.
    public func clientConfigurationHandle(ofValue valueHandle: UInt16) -> UInt16? {
        table.first {
            if case .clientConfiguration(let value, _) = $0.role { return value == valueHandle }
            return false
        }?.handle
    }

    /// The current value of a stored attribute (declarations and the Database Hash
    /// included); nil for handler values, CCCDs (per connection) and handles that do not exist.
    public func value(at handle: UInt16) -> [UInt8]? {
        guard let attribute = attribute(handle) else { return nil }
        switch attribute.source {
        case .fixed(let bytes): return bytes
        case .stored: return store.withLock { $0[handle] }
        case .databaseHash: return hash
        case .handlers, .clientConfiguration: return nil
        }
    }

    /// Replaces a stored value (e.g. a new Battery Level before notifying it).
    /// Returns false, changing nothing, when `handle` is not a stored value or the
    /// value is longer than the attribute's maximum length.
    @discardableResult
    public func setValue(_ value: [UInt8], at handle: UInt16) -> Bool {
        guard let attribute = attribute(handle), case .stored = attribute.source,
              value.count <= attribute.maximumLength else { return false }
        store.withLock { $0[handle] = value }
        return true
    }

    // MARK: Access for the server (permissions are the caller's concern)

    /// Reads a non-CCCD attribute's whole value.
    func read(_ attribute: GATTAttribute) throws(ATTErrorCode) -> [UInt8] {
        switch attribute.source {
        case .fixed(let bytes): return bytes
        case .stored: return store.withLock { $0[attribute.handle] } ?? []
        case .databaseHash: return hash
        case .handlers(let read, _):
            guard let read else { throw .readNotPermitted }
            return try read()
        case .clientConfiguration: return [0, 0]
        }
    }

    /// Writes a non-CCCD attribute's whole value.
    func write(_ attribute: GATTAttribute, _ value: [UInt8]) throws(ATTErrorCode) {
        switch attribute.source {
        case .stored: store.withLock { $0[attribute.handle] = value }
        case .handlers(_, let write):
            guard let write else { throw .writeNotPermitted }
            try write(value)
        case .fixed, .databaseHash, .clientConfiguration: throw .writeNotPermitted
        }
    }
}
