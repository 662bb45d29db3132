import DeviceControl
import HCIPackets
import HCITransports
import SMP
import Roles
import StrictJSON
import Simulation

extension Rig {
    /// Reads a rig file's top-level object: every field checked, unknown keys rejected with a did-you-mean,
    /// then the whole checked for consistency (`RigConsistency`): switch ports that exist and are used
    /// once, simulated controllers used once. A top-level `"$schema"` string names the JSON Schema editors
    /// check the file against (`rigs/rig.schema.json`, `RigSchema`); its value is not used.
    public init(reading value: InputValue) throws(InputError) {
        self = try value.object(RigFormatTable.Root.shape, "a JSON object (a rig file)") { fields throws(InputError) -> Rig in
            _ = try fields.value("$schema")?.string("a string naming the rig file's JSON Schema, like \"./rig.schema.json\"", allowEmpty: true)
            let name = try fields.string(RigFormatTable.Root.name)
            let summary = try fields.value("description")?.string("a string", allowEmpty: true)
            let adapterValue = try fields.required("adapter", "an object like {\"moniker\": \"usb:0\"}")
            let adapter = try adapterValue.object(RigFormatTable.Adapter.shape) { adapterFields throws(InputError) -> Adapter in
                let monikerValue = try adapterFields.required("moniker", "a transport moniker like \"usb:0\" or \"sim:central\"")
                let moniker = try monikerValue.string("a transport moniker like \"usb:0\" or \"sim:central\"")
                do throws(HCITransportError) { _ = try TransportMoniker(parsing: moniker) } catch { throw monikerValue.problem(error.message) }
                return Adapter(moniker: moniker, power: try adapterFields.value("power").map(Self.powerReference))
            }
            let switches = try fields.value("powerSwitches").map { (value: InputValue) throws(InputError) -> [PowerSwitchDescription] in
                try PowerSwitchDescription.list(reading: value)
            } ?? []
            let simulation = try fields.value("simulation").map { (value: InputValue) throws(InputError) -> SimulatedWorldDescription in
                try SimulatedWorldDescription(reading: value)
            }
            let list = try fields.required("accessories", "an array of accessories")
            var accessories: [Accessory] = []
            for item in try list.array("an array of accessories") { accessories.append(try Self.accessory(item)) }
            let budgets: Budgets
            if let value = fields.value("budgets") { budgets = try Budgets(reading: value) } else { budgets = try Budgets.defaults() }
            let reportsLinkLoss = try fields.bool(RigFormatTable.Root.reportsLinkLoss)
            var rig = Rig(name: name, summary: summary, adapter: adapter, accessories: accessories, budgets: budgets,
                          remoteLossReasons: try Self.statuses(fields, "remoteLossReasons", default: [.connectionTimeout]),
                          localDisconnectReasons: try Self.statuses(fields, "localDisconnectReasons", default: [HCIStatus(rawValue: 0x16)]),
                          reportsLinkLoss: reportsLinkLoss,
                          peerSeesAdapterReset: try fields.bool("peerSeesAdapterReset", default: reportsLinkLoss),
                          simulation: simulation, powerSwitches: switches, path: nil)
            rig.meters = try Self.meters(fields)
            rig.labgrid = try fields.value("labgrid").map(Self.labgridPlace)
            // A labgrid switch without a coordinator of its own uses the rig's place's.
            if let coordinator = rig.labgrid?.coordinator {
                for index in rig.powerSwitches.indices {
                    if case .labgrid(let place, let resource, nil) = rig.powerSwitches[index].backend {
                        rig.powerSwitches[index].backend = .labgrid(place: place, resource: resource, coordinator: coordinator)
                    }
                }
            }
            try RigConsistency(rig).check()
            return rig
        }
    }

    /// `"labgrid": {"place": "bench-1", "coordinator": "127.0.0.1:20408"}`; the coordinator defaults to
    /// `LG_COORDINATOR`, else labgrid's default.
    static func labgridPlace(_ value: InputValue) throws(InputError) -> LabgridPlace {
        try value.object(RigFormatTable.Labgrid.shape, "an object like {\"place\": \"bench-1\", \"coordinator\": \"127.0.0.1:20408\"}") { fields throws(InputError) -> LabgridPlace in
            let place = try fields.string(RigFormatTable.Labgrid.place)
            let coordinator = try fields.value("coordinator").map { (value: InputValue) throws(InputError) -> String in
                try PowerSwitchDescription.coordinatorAddress(value)
            }
            return LabgridPlace(place: place, coordinator: coordinator)
        }
    }

    static func powerReference(_ value: InputValue) throws(InputError) -> PowerReference {
        try value.object(RigFormatTable.PowerReference.shape, "an object like {\"switch\": \"sim-switch\", \"port\": 1}") { fields throws(InputError) -> PowerReference in
            PowerReference(switchName: try fields.string(RigFormatTable.PowerReference.`switch`), port: try fields.integer(RigFormatTable.PowerReference.port))
        }
    }

    static func accessory(_ value: InputValue) throws(InputError) -> Accessory {
        try value.object(RigFormatTable.Accessory.shape) { fields throws(InputError) -> Accessory in
            let name = try fields.string(RigFormatTable.Accessory.name)
            let matchValue = try fields.required("match", "an object with a name, address, service or manufacturer")
            let filter = try matchValue.object(RigFormatTable.Match.shape) { match throws(InputError) -> ScanFilter in
                var filter = ScanFilter(name: try match.optionalString("name", "the advertised name"))
                if let value = match.value("address") {
                    guard let address = BDAddress(try value.string("a BD_ADDR like \"C0:48:49:4C:00:02\"")) else { throw value.fail("a BD_ADDR like \"C0:48:49:4C:00:02\"") }
                    filter.address = address
                }
                if let value = match.value("service") {
                    guard let uuid = BluetoothUUID(try value.string("a service UUID like \"180D\"")) else { throw value.fail("a service UUID like \"180D\"") }
                    filter.serviceUUID = uuid
                }
                if match.has(RigFormatTable.Match.manufacturer.key) {
                    filter.manufacturer = CompanyIdentifier(rawValue: UInt16(try match.integer(RigFormatTable.Match.manufacturer)))
                }
                guard !filter.isEmpty else { throw matchValue.problem("give a name, address, service or manufacturer to recognise it by") }
                return filter
            }
            var expected: [BluetoothUUID] = []
            if let list = fields.value("expectedServices") {
                for item in try list.array("an array of service UUIDs like \"180F\"") {
                    guard let uuid = BluetoothUUID(try item.string("a service UUID like \"180F\"")) else { throw item.fail("a service UUID like \"180F\"") }
                    expected.append(uuid)
                }
            }
            let security = try fields.value("security").map { (value: InputValue) throws(InputError) -> AccessorySecurity in
                try AccessorySecurity(reading: value)
            }
            var simulated = try fields.value("simulated").map { (value: InputValue) throws(InputError) -> SimulatedAccessoryDescription in
                try SimulatedAccessoryDescription(reading: value)
            }
            simulated?.security = security
            return Accessory(name: name, match: filter, power: try fields.value("power").map(Self.powerReference), expectedServices: expected,
                             simulated: simulated, security: security, malicious: try fields.bool(RigFormatTable.Accessory.malicious),
                             link: try fields.value(RigFormatTable.Accessory.link).map(AccessoryLink.init(reading:)),
                             meter: try fields.optionalString(RigFormatTable.Accessory.meter),
                             energy: try fields.value(RigFormatTable.Accessory.energy).map(AccessoryEnergy.init(reading:)),
                             firmwareUpdate: try fields.value(RigFormatTable.Accessory.firmwareUpdate).map(AccessoryFirmwareUpdate.init(reading:)))
        }
    }

    /// `meters`: each entry read, names unique.
    static func meters(_ fields: InputObject) throws(InputError) -> [RigMeter] {
        guard let list = fields.value(RigFormatTable.Root.meters) else { return [] }
        var meters: [RigMeter] = []
        for item in try list.array("an array of meters") {
            let meter = try RigMeter(reading: item)
            if let first = meters.firstIndex(where: { $0.name == meter.name }) {
                throw InputError(at: "\(item.path).name", "'\(meter.name)' is used twice (first by meters[\(first)])")
            }
            meters.append(meter)
        }
        return meters
    }

    /// `["0x08", "0x15"]`: HCI status codes (Core v5.4 Vol 1 Part F).
    static func statuses(_ fields: InputObject, _ key: String, default fallback: [HCIStatus]) throws(InputError) -> [HCIStatus] {
        guard let list = fields.value(key) else { return fallback }
        var result: [HCIStatus] = []
        for item in try list.array("a non-empty array of HCI status codes like \"0x08\"", nonEmpty: true) {
            let text = try item.string("an HCI status code like \"0x08\"")
            let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            guard !digits.isEmpty, digits.count <= 2, let code = UInt8(digits, radix: 16) else { throw item.fail("an HCI status code like \"0x08\"") }
            result.append(HCIStatus(rawValue: code))
        }
        return result
    }
}
