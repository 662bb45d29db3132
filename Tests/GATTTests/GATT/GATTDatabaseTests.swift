import Testing
@testable import HCIPackets
@testable import GATT

@Suite("GATT database")
struct GATTDatabaseTests {
    static func small() throws -> GATTDatabase {
        try GATTDatabase(services: [.gap(name: "HIL", appearance: 0x0341), .gatt(), .battery(level: 90)])
    }

    @Test("Handles are assigned in order from 0x0001; CCCDs are added for notify/indicate")
    func layout() throws {
        let database = try Self.small()
        #expect(database.attributeCount == 0x11)
        let types = (1...0x11).compactMap { database.type(at: UInt16($0))?.uint16Value }
        #expect(types == [0x2800, 0x2803, 0x2A00, 0x2803, 0x2A01,
                          0x2800, 0x2803, 0x2A05, 0x2902, 0x2803, 0x2B29, 0x2803, 0x2B2A,
                          0x2800, 0x2803, 0x2A19, 0x2902])
        #expect(database.value(at: 0x0001) == [0x00, 0x18])
        #expect(database.value(at: 0x0002) == attHex("02 0300 002A"))
        #expect(database.value(at: 0x0003) == Array("HIL".utf8))
        #expect(database.value(at: 0x0005) == [0x41, 0x03])
        #expect(database.value(at: 0x0007) == attHex("20 0800 052A"))
        #expect(database.value(at: 0x000D) == database.hash)
        #expect(database.value(at: 0x0009) == nil)   // CCCDs are per connection
        #expect(database.type(at: 0) == nil && database.type(at: 0x12) == nil)
        #expect(database.valueHandle(of: .batteryLevel) == 0x10)
        #expect(database.valueHandle(of: .batteryLevel, in: .genericAccess) == nil)
        #expect(database.clientConfigurationHandle(ofValue: 0x10) == 0x11)
        #expect(database.clientConfigurationHandle(ofValue: 0x03) == nil)
        #expect(database.permissions(at: 0x08) == [])
        #expect(database.permissions(at: 0x0B) == [.read, .write])
    }

    /// The expected hash was computed independently from the layout above, with
    /// python3 and the `cryptography` package, and with OpenSSL:
    /// ```
    /// printf '%s' 01000028001802000328020300002a04000328020500012a06000028011807000328200800052a\
    /// 090002290a0003280a0b00292b0c000328020d002a2b0e0000280f180f000328121000192a11000229 | xxd -r -p > m.bin
    /// openssl dgst -mac CMAC -macopt cipher:aes-128-cbc -macopt hexkey:00000000000000000000000000000000 m.bin
    /// python3 -c 'from cryptography.hazmat.primitives.cmac import CMAC; from cryptography.hazmat.primitives.ciphers
    ///   import algorithms; c=CMAC(algorithms.AES(bytes(16))); c.update(open("m.bin","rb").read()); print(c.finalize().hex())'
    /// ```
    /// Both print 5fa4087c06b0515faf10a296c998499c.
    @Test("Database Hash (Vol 3 Part G §7.3) of GAP + GATT + Battery matches an independent computation")
    func databaseHash() throws {
        let database = try Self.small()
        let input = attHex("""
            0100 0028 0018  0200 0328 02 0300 002A  0400 0328 02 0500 012A  0600 0028 0118
            0700 0328 20 0800 052A  0900 0229  0A00 0328 0A 0B00 292B  0C00 0328 02 0D00 2A2B
            0E00 0028 0F18  0F00 0328 12 1000 192A  1100 0229
            """)
        #expect(GATTDatabase.hashInput(database.table) == input)
        #expect(database.hash == attHex("5fa4087c06b0515faf10a296c998499c"))
    }

    @Test("The hash covers declarations and the listed descriptors, not values")
    func hashScope() throws {
        let a = try Self.small()
        let b = try GATTDatabase(services: [.gap(name: "Another name", appearance: 0), .gatt(), .battery(level: 1)])
        #expect(a.hash == b.hash)
        let c = try GATTDatabase(services: [.gap(name: "HIL", appearance: 0x0341), .gatt(), .battery(level: 90),
                                            .deviceInformation(manufacturer: "M")])
        #expect(a.hash != c.hash)
        let withDescription = try GATTDatabase(services: [GATTService(uuid: .battery, characteristics: [
            GATTCharacteristic(uuid: .batteryLevel, properties: .read, value: .bytes([1]), descriptors: [.userDescription("x")]),
        ])])
        #expect(GATTDatabase.hashInput(withDescription.table) == attHex("0100 0028 0F18  0200 0328 02 0300 192A  0400 0129"))
    }

    @Test("Extended properties add the 0x2900 descriptor and the property bit")
    func extendedProperties() throws {
        let database = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(UInt16(0xAAAA)), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xAAA1)), properties: [.write, .indicate], extendedProperties: 0x0003),
        ])])
        #expect(database.value(at: 2) == attHex("A8 0300 A1AA"))
        #expect(database.type(at: 4) == BluetoothUUID(UInt16(0x2900)) && database.value(at: 4) == [0x03, 0x00])
        #expect(database.type(at: 5) == .clientCharacteristicConfiguration)
        #expect(GATTDatabase.hashInput(database.table).suffix(10) == attHex("0400 0029 0300  0500 0229"))
    }

    @Test("A listed CCCD or Extended Properties descriptor is not added twice")
    func noDuplicateDescriptors() throws {
        var characteristic = GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xAAA1)), properties: [.read, .notify],
                                                descriptors: [GATTDescriptor(uuid: .clientCharacteristicConfiguration, value: .bytes([0, 0])),
                                                              .userDescription("d")])
        characteristic.extendedProperties = 0x0002
        let database = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(UInt16(0xAAAA)), characteristics: [characteristic])])
        #expect(database.attributeCount == 6)
        #expect(database.serviceTree.services[0].characteristics[0].descriptors.map(\.uuid)
                == [BluetoothUUID(UInt16(0x2900)), .clientCharacteristicConfiguration, .characteristicUserDescription])
        #expect(database.value(at: 2)?.first == 0x92)
    }

    @Test("Includes point forwards or backwards; 16-bit UUIDs are in the value, 128-bit ones are not")
    func includes() throws {
        let vendor = BluetoothUUID("A0B4FFFF-926D-4D61-98DF-8C5C62EE53B3") ?? .base
        let database = try GATTDatabase(services: [
            GATTService(uuid: BluetoothUUID(UInt16(0xFE00)), includes: [vendor, .battery], characteristics: []),
            GATTService(uuid: vendor, isPrimary: false, characteristics: []),
            .battery(level: 5),
        ])
        #expect(database.value(at: 2) == attHex("0400 0400"))
        #expect(database.value(at: 3) == attHex("0500 0800 0F18"))
        #expect(database.type(at: 4) == .secondaryService)
        #expect(database.serviceTree.services.first?.includes.map(\.uuid) == [vendor, .battery])
        #expect(throws: GATTDatabaseError.unknownInclude(service: .battery, included: .heartRate)) {
            try GATTDatabase(services: [GATTService(uuid: .battery, includes: [.heartRate], characteristics: [])])
        }
    }

    @Test("Layout errors: values too long, too many attributes")
    func layoutErrors() {
        #expect(throws: GATTDatabaseError.valueTooLong(uuid: .batteryLevel, length: 2, maximum: 1)) {
            try GATTDatabase(services: [GATTService(uuid: .battery, characteristics: [
                GATTCharacteristic(uuid: .batteryLevel, properties: .read, value: .bytes([1, 2]), maximumLength: 1),
            ])])
        }
        #expect(throws: GATTDatabaseError.self) {
            try GATTDatabase(services: [GATTService(uuid: .battery, characteristics: [
                GATTCharacteristic(uuid: .batteryLevel, properties: .read, value: .bytes(Array(repeating: 0, count: 513))),
            ])])
        }
        let many = Array(repeating: GATTCharacteristic(uuid: .batteryLevel, properties: .read), count: 32_768)
        #expect(throws: GATTDatabaseError.tooManyAttributes(65_537)) {
            try GATTDatabase(services: [GATTService(uuid: .battery, characteristics: many)])
        }
    }

    @Test("setValue updates stored values within their maximum length only")
    func setValue() throws {
        let database = try Self.small()
        #expect(database.setValue([42], at: 0x10))
        #expect(database.value(at: 0x10) == [42])
        #expect(!database.setValue([1, 2], at: 0x10))
        #expect(!database.setValue([1], at: 0x01))
        #expect(!database.setValue([1], at: 0x11))
        #expect(!database.setValue([1], at: 0x99))
        #expect(database.value(at: 0x10) == [42])
    }

    @Test("Ready-made services have the characteristics their specifications name")
    func standardServices() throws {
        let tree = try GATTDatabase(services: [
            .deviceInformation(manufacturer: "M", serial: "S"), .heartRate(beatsPerMinute: 72), .healthThermometer(),
        ]).serviceTree
        #expect(tree.services.map(\.uuid) == [.deviceInformation, .heartRate, .healthThermometer])
        #expect(tree.services[0].characteristics.map(\.uuid) == [BluetoothUUID(UInt16(0x2A29)), BluetoothUUID(UInt16(0x2A25))])
        #expect(tree.services[1].characteristics.map(\.properties) == [.notify, .read])
        #expect(tree.services[1].characteristics[0].clientConfigurationHandle != nil)
        #expect(tree.services[2].characteristics.map(\.properties) == [.indicate])
    }

    @Test("The service tree prints services, characteristics with names, handles and properties, descriptors")
    func treeDescription() throws {
        #expect(try Self.small().serviceTree.description == """
            Service 1800 Generic Access [0x0001…0x0005]
              Characteristic 2A00 Device Name [0x0003] read
              Characteristic 2A01 Appearance [0x0005] read
            Service 1801 Generic Attribute [0x0006…0x000D]
              Characteristic 2A05 Service Changed [0x0008] indicate
                Descriptor 2902 Client Characteristic Configuration [0x0009]
              Characteristic 2B29 Client Supported Features [0x000B] read, write
              Characteristic 2B2A Database Hash [0x000D] read
            Service 180F Battery [0x000E…0x0011]
              Characteristic 2A19 Battery Level [0x0010] read, notify
                Descriptor 2902 Client Characteristic Configuration [0x0011]
            Database Hash 5FA4087C06B0515FAF10A296C998499C
            """)
        #expect(GATTCharacteristicProperties(rawValue: 0xFF).description
                == "broadcast, read, writeWithoutResponse, write, notify, indicate, authenticatedSignedWrites, extendedProperties")
        #expect(GATTCharacteristicProperties().description == "none")
        #expect(GATTPermissions(properties: [.read, .writeWithoutResponse]) == [.read, .write])
        #expect(GATTClientConfiguration(rawValue: 3).description == "notification, indication")
        #expect(GATTServiceTree.ReadValue.bytes([0x00, 0x41]).description == "0041")
        #expect(GATTServiceTree.ReadValue.bytes([]).description == "(empty)")
    }
}
