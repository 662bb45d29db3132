import HCIPackets
// MTU exchange and discovery: Core v5.4 Vol 3 Part G §4.3–§4.7.

extension GATTClient {
    /// Exchange MTU (Vol 3 Part G §4.3.1): offers `offering` (default `preferredMTU`, clamped to
    /// 23…`preferredMTU`) and adopts min(that, the server's), at least 23. Only the first call sends a request
    /// (the procedure runs once per connection); later calls return the MTU in use.
    @discardableResult
    public func exchangeMTU(offering: Int? = nil) async throws(ATTError) -> Int {
        guard !hasExchangedMTU else { return mtu }
        hasExchangedMTU = true
        let offered = min(preferredMTU, max(ATTServer.defaultMTU, offering ?? preferredMTU))
        let request = ATTPDU.exchangeMTURequest(clientRxMTU: UInt16(offered))
        let serverMTU = try await self.request(request) { pdu -> UInt16? in
            if case .exchangeMTUResponse(let value) = pdu { return value }
            return nil
        }
        guard Int(serverMTU) >= ATTServer.defaultMTU else {
            // Vol 3 Part F §3.4.2.2: Server Rx MTU is at least the default 23.
            let response = ATTPDU.exchangeMTUResponse(serverRxMTU: serverMTU)
            throw .protocolViolation(request: request, violated("Exchange MTU Response with Server Rx MTU \(serverMTU), below the minimum "
                + "\(ATTServer.defaultMTU) (Vol 3 Part F §3.4.2.2)", response.encoded()))
        }
        mtu = max(ATTServer.defaultMTU, min(offered, Int(serverMTU)))
        return mtu
    }

    /// Discover All Primary Services (§4.4.1): Read By Group Type for 0x2800 from
    /// 0x0001 until Attribute Not Found or the group ending at 0xFFFF.
    public func discoverPrimaryServices() async throws(ATTError) -> [GATTServiceTree.Service] {
        try await paged(from: 0x0001, through: 0xFFFF,
                        request: { .readByGroupTypeRequest(startHandle: $0, endHandle: 0xFFFF, type: .primaryService) },
                        entries: { pdu -> [ATTPDU.GroupData]? in
                            if case .readByGroupTypeResponse(let list) = pdu { return list }
                            return nil
                        },
                        span: { .group($0.handle, end: $0.endGroupHandle) },
                        element: { entry, request throws(ATTError) in
                            guard let uuid = Self.uuid(entry.value) else {
                                throw .invalidResponse(request: request, reason: "service UUID of \(entry.value.count) octets; must be 2 or 16")
                            }
                            return GATTServiceTree.Service(handle: entry.handle, endHandle: entry.endGroupHandle, uuid: uuid)
                        })
    }

    /// Discover Primary Service by Service UUID (§4.4.2): Find By Type Value for
    /// 0x2800 with the UUID, from 0x0001 until Attribute Not Found or 0xFFFF.
    public func discoverPrimaryServices(uuid: BluetoothUUID) async throws(ATTError) -> [GATTServiceTree.Service] {
        try await paged(from: 0x0001, through: 0xFFFF,
                        request: { .findByTypeValueRequest(startHandle: $0, endHandle: 0xFFFF, type: 0x2800, value: uuid.attBytes) },
                        entries: { pdu -> [ATTPDU.HandlesInformation]? in
                            if case .findByTypeValueResponse(let list) = pdu { return list }
                            return nil
                        },
                        span: { .group($0.foundHandle, end: $0.groupEndHandle) },
                        element: { entry, _ in
                            GATTServiceTree.Service(handle: entry.foundHandle, endHandle: entry.groupEndHandle, uuid: uuid)
                        })
    }

    /// Find Included Services (§4.5.1): Read By Type for 0x2802 over the service's
    /// range. An include without a 16-bit UUID costs a Read Request of the
    /// included service's declaration to learn its 128-bit UUID.
    public func discoverIncludedServices(of service: GATTServiceTree.Service) async throws(ATTError) -> [GATTServiceTree.Include] {
        var includes: [GATTServiceTree.Include] = []
        for entry in try await readByTypeAll(.include, from: service.handle, through: service.endHandle) {
            let value = entry.value
            guard value.count == 6 || value.count == 4 else {
                throw .invalidResponse(request: .readByTypeRequest(startHandle: service.handle, endHandle: service.endHandle, type: .include),
                                       reason: "include at \(Self.hex(entry.handle)) has \(value.count) octets; must be 4 or 6")
            }
            let start = UInt16(value[0]) | UInt16(value[1]) << 8
            let end = UInt16(value[2]) | UInt16(value[3]) << 8
            let uuid: BluetoothUUID
            if value.count == 6, let short = BluetoothUUID(littleEndian: value[4...]) {
                uuid = short
            } else {
                let request = ATTPDU.readRequest(handle: start)
                let raw = try await self.request(request) { pdu -> [UInt8]? in
                    if case .readResponse(let value) = pdu { return value }
                    return nil
                }
                guard raw.count == 16, let long = BluetoothUUID(littleEndian: raw) else {
                    throw .invalidResponse(request: request, reason: "included service UUID of \(raw.count) octets; expected 16")
                }
                uuid = long
            }
            includes.append(GATTServiceTree.Include(handle: entry.handle, serviceHandle: start, endHandle: end, uuid: uuid))
        }
        return includes
    }

    /// Discover All Characteristics of a Service (§4.6.1): Read By Type for 0x2803
    /// over the service's range, with 16- or 128-bit UUIDs. Each characteristic
    /// ends before the next declaration or at the service's end.
    public func discoverCharacteristics(of service: GATTServiceTree.Service) async throws(ATTError) -> [GATTServiceTree.Characteristic] {
        var characteristics: [GATTServiceTree.Characteristic] = []
        let range = (service.handle, service.endHandle)
        for entry in try await readByTypeAll(.characteristic, from: range.0, through: range.1) {
            let value = entry.value
            guard value.count == 5 || value.count == 19, let uuid = BluetoothUUID(littleEndian: value[3...]) else {
                throw .invalidResponse(request: .readByTypeRequest(startHandle: range.0, endHandle: range.1, type: .characteristic),
                                       reason: "declaration at \(Self.hex(entry.handle)) has \(value.count) octets; must be 5 or 19")
            }
            let valueHandle = UInt16(value[1]) | UInt16(value[2]) << 8
            if var previous = characteristics.popLast() {
                previous.endHandle = entry.handle - 1
                characteristics.append(previous)
            }
            characteristics.append(GATTServiceTree.Characteristic(
                handle: entry.handle, valueHandle: valueHandle, endHandle: service.endHandle, uuid: uuid,
                properties: GATTCharacteristicProperties(rawValue: value[0])))
        }
        return characteristics
    }

    /// Discover All Characteristic Descriptors (§4.7.1): Find Information from the
    /// handle after the value to the characteristic's end.
    public func discoverDescriptors(of characteristic: GATTServiceTree.Characteristic) async throws(ATTError) -> [GATTServiceTree.Descriptor] {
        guard characteristic.valueHandle < characteristic.endHandle else { return [] }
        let end = characteristic.endHandle
        return try await paged(from: characteristic.valueHandle + 1, through: end,
                               request: { .findInformationRequest(startHandle: $0, endHandle: end) },
                               entries: { pdu -> [ATTPDU.Information]? in
                                   if case .findInformationResponse(let list) = pdu { return list }
                                   return nil
                               },
                               span: { .attribute($0.handle) },
                               element: { entry, _ in GATTServiceTree.Descriptor(handle: entry.handle, uuid: entry.type) })
    }

    /// Discovers everything: MTU exchange (if not done), primary services, their
    /// includes (and the secondary services they reach), characteristics,
    /// descriptors and the Database Hash when there is one. With `readValues`,
    /// reads every readable characteristic and every descriptor; an ATT error on
    /// one of those reads is recorded in the tree rather than thrown.
    public func discoverAll(readValues: Bool = false) async throws(ATTError) -> GATTServiceTree {
        do {
            try await exchangeMTU()
        } catch {
            // A server that refuses the exchange keeps the default ATT_MTU (Vol 3 Part G §4.3.1).
            guard error.errorCode != nil else { throw error }
        }
        var services = try await discoverPrimaryServices()
        var known = Set(services.map(\.handle))
        var index = 0
        while index < services.count {
            let includes = try await discoverIncludedServices(of: services[index])
            services[index].includes = includes
            for include in includes where !known.contains(include.serviceHandle) {
                known.insert(include.serviceHandle)
                services.append(GATTServiceTree.Service(handle: include.serviceHandle, endHandle: include.endHandle,
                                                        uuid: include.uuid, isPrimary: false))
            }
            index += 1
        }
        services.sort { $0.handle < $1.handle }
        for s in services.indices {
            var characteristics = try await discoverCharacteristics(of: services[s])
            for c in characteristics.indices {
                characteristics[c].descriptors = try await discoverDescriptors(of: characteristics[c])
            }
            services[s].characteristics = characteristics
        }
        var tree = GATTServiceTree(services: services)
        if let hash = tree.characteristic(.databaseHash), hash.properties.contains(.read) {
            do {
                tree.databaseHash = try await read(handle: hash.valueHandle)
            } catch {
                // A server may guard the hash (e.g. behind encryption); that is not a discovery failure.
                guard error.errorCode != nil else { throw error }
            }
        }
        if readValues { try await readTreeValues(into: &tree) }
        return tree
    }

    /// Reads every readable characteristic value and every descriptor of `tree`.
    func readTreeValues(into tree: inout GATTServiceTree) async throws(ATTError) {
        for s in tree.services.indices {
            for c in tree.services[s].characteristics.indices {
                let characteristic = tree.services[s].characteristics[c]
                if characteristic.properties.contains(.read) {
                    tree.services[s].characteristics[c].value = try await readRecordingErrors(characteristic.valueHandle)
                }
                for d in characteristic.descriptors.indices {
                    tree.services[s].characteristics[c].descriptors[d].value =
                        try await readRecordingErrors(characteristic.descriptors[d].handle)
                }
            }
        }
    }

    private func readRecordingErrors(_ handle: UInt16) async throws(ATTError) -> GATTServiceTree.ReadValue {
        do {
            return .bytes(try await read(handle: handle))
        } catch {
            guard let code = error.errorCode else { throw error }
            return .error(code)
        }
    }

    /// Reads the Database Hash characteristic (0x2B2A, Vol 3 Part G §7.3) with
    /// Read Using Characteristic UUID; nil when the server has none.
    public func readDatabaseHash() async throws(ATTError) -> [UInt8]? {
        let request = ATTPDU.readByTypeRequest(startHandle: 0x0001, endHandle: 0xFFFF, type: .databaseHash)
        let list: [ATTPDU.HandleValue]
        do {
            list = try await self.request(request) { pdu -> [ATTPDU.HandleValue]? in
                if case .readByTypeResponse(let list) = pdu { return list }
                return nil
            }
        } catch {
            if error.errorCode == .attributeNotFound { return nil }
            throw error
        }
        guard let first = list.first, first.value.count == 16 else {
            throw .invalidResponse(request: request, reason: "Database Hash of \(list.first?.value.count ?? 0) octets; expected 16")
        }
        return first.value
    }

    // MARK: Helpers

    /// Sends `request` and extracts the response's payload.
    func request<T>(_ request: ATTPDU, _ extract: (ATTPDU) -> T?) async throws(ATTError) -> T {
        let response = try await transact(request)
        guard let value = extract(response) else { throw .unexpectedResponse(request: request, received: response) }
        return value
    }

    static func uuid(_ bytes: [UInt8]) -> BluetoothUUID? {
        bytes.count == 2 || bytes.count == 16 ? BluetoothUUID(littleEndian: bytes) : nil
    }

    static func hex(_ handle: UInt16) -> String { HexFormat.prefixed(handle, width: 4) }
}
