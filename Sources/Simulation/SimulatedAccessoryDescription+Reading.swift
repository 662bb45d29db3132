import GATT
import MCUbootImage
import MCUmgr
import StrictJSON

extension SimulatedAccessoryDescription {
    /// Reads an accessory's `simulated` block: `controller` and `name` required; `services` (standard
    /// profile names), `advertisingIntervalMilliseconds` (20…10240, Core v5.4 Vol 6 Part B §4.4.2.2),
    /// `bootDelayMilliseconds` (0…60000), `faults`, `bench` (false), `requestsIntervalMilliseconds`, `dfu` and `current` optional. Its security is the rig accessory's.
    package init(reading value: InputValue) throws(InputError) {
        self = try value.object(SimulationFormat.Accessory.shape) {
            fields throws(InputError) -> Self in
            let controller = try fields.string(SimulationFormat.Accessory.controller)
            let name = try fields.string(SimulationFormat.Accessory.name)
            var services: [StandardProfile] = []
            if let list = fields.value("services") {
                let known = StandardProfile.allCases.map(\.rawValue)
                for item in try list.array("an array of profile names (\(known.joined(separator: ", ")))") {
                    let text = try item.string("a profile name (\(known.joined(separator: ", ")))")
                    guard let profile = StandardProfile(name: text) else {
                        let hint = DidYouMean.closest(to: text, among: known).map { "; did you mean \($0)?" } ?? " (known: \(known.joined(separator: ", ")))"
                        throw item.problem("unknown service '\(JSONValue.excerpt(text))'\(hint)")
                    }
                    guard !services.contains(profile) else { throw item.fail("each service once") }
                    services.append(profile)
                }
            }
            return Self(controller: controller, name: name, services: services,
                        advertisingIntervalMilliseconds: try fields.number(SimulationFormat.Accessory.advertisingIntervalMilliseconds),
                        bootDelayMilliseconds: try fields.number(SimulationFormat.Accessory.bootDelayMilliseconds),
                        faults: try fields.value("faults").map { (value: InputValue) throws(InputError) -> SimulatedAccessoryFaults in
                            try SimulatedAccessoryFaults(reading: value)
                        } ?? SimulatedAccessoryFaults(),
                        bench: try fields.bool(SimulationFormat.Accessory.bench),
                        requestsIntervalMilliseconds: try fields.optionalNumber(SimulationFormat.Accessory.requestsIntervalMilliseconds),
                        dfu: try fields.value(SimulationFormat.Accessory.dfu).map { (value: InputValue) throws(InputError) -> SimulatedDFU in
                            try SimulatedDFU(reading: value)
                        },
                        current: try fields.value(SimulationFormat.Accessory.current).map { (value: InputValue) throws(InputError) -> SimulatedCurrentModel in
                            try SimulatedCurrentModel(reading: value)
                        })
        }
    }
}

extension SimulatedCurrentModel {
    private typealias Table = SimulationFormat.Current

    /// Reads `current`: every key optional (its default), a misspelt one an error.
    package init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            var model = Self()
            model.sleepMicroamperes = try fields.number(Table.sleep)
            model.advertisingChannelMicrocoulombs = try fields.number(Table.advertisingChannel)
            model.connectionEventMicrocoulombs = try fields.number(Table.connectionEvent)
            model.transmitMicrocoulombsPerMicrosecond = try fields.number(Table.transmit)
            model.receiveMicrocoulombsPerMicrosecond = try fields.number(Table.receive)
            model.bootMicrocoulombs = try fields.number(Table.boot)
            model.flashEraseMicroamperes = try fields.number(Table.flashErase)
            model.flashWriteMicroamperes = try fields.number(Table.flashWrite)
            return model
        }
    }
}

extension SimulatedDFU {
    private typealias Table = SimulationFormat.DFU

    /// Reads `dfu`: every key optional, a misspelt one an error.
    package init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            let text = try fields.string(Table.version)
            guard let version = MCUbootVersion(parsing: text) else {
                throw (fields.value(Table.version) ?? value).problem("version '\(JSONValue.excerpt(text))' is not major.minor.revision[+build] "
                                                                    + "(major and minor up to 255, revision up to 65535)")
            }
            return Self(version: version, slotSizeKiB: try fields.integer(Table.slotSizeKiB), eraseMilliseconds: try fields.number(Table.eraseMilliseconds),
                        writeMillisecondsPerKiB: try fields.number(Table.writeMillisecondsPerKiB), swapMilliseconds: try fields.number(Table.swapMilliseconds),
                        signingKeyFile: try fields.optionalString(Table.signingKey), signedWithFile: try fields.optionalString(Table.signedWith))
        }
    }
}

extension SimulatedAccessoryFaults {
    private typealias Table = SimulationFormat.Faults

    /// Reads `faults`: every key optional, a misspelt one an error (a fault that is silently never
    /// injected would make its suite pass for the wrong reason).
    package init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            return Self(
                stopsAdvertisingAfterPowerCycles: try fields.optionalInteger(Table.stopsAdvertisingAfterPowerCycles),
                dropsLinkAfterMilliseconds: try fields.optionalNumber(Table.dropsLinkAfterMilliseconds),
                slowATTMilliseconds: try fields.optionalNumber(Table.slowATTMilliseconds),
                rebootsOnWrite: try fields.bool(Table.rebootsOnWrite),
                refusesConnections: try fields.bool(Table.refusesConnections),
                forgetsBondsOnPowerCycle: try fields.bool(Table.forgetsBondsOnPowerCycle),
                servesProtectedUnencrypted: try fields.bool(Table.servesProtectedUnencrypted),
                rejectsPairing: try fields.bool(Table.rejectsPairing),
                answersWithWrongLTK: try fields.bool(Table.answersWithWrongLTK),
                maliciousATT: try fields.value("maliciousATT").map { (item: InputValue) throws(InputError) -> SimulatedMaliciousATT in
                    let known = SimulatedMaliciousATT.allCases.map(\.rawValue)
                    let text = try item.string("one of \(known.joined(separator: ", "))")
                    guard let behaviour = SimulatedMaliciousATT(rawValue: text) else {
                        let hint = DidYouMean.closest(to: text, among: known).map { "; did you mean \($0)?" } ?? " (known: \(known.joined(separator: ", ")))"
                        throw item.problem("unknown malicious ATT behaviour '\(JSONValue.excerpt(text))'\(hint)")
                    }
                    return behaviour
                },
                rejectsPHY2M: try fields.bool(Table.rejectsPHY2M),
                stopsNotifyingWhenMTUGrows: try fields.bool(Table.stopsNotifyingWhenMTUGrows),
                halvesNotificationRate: try fields.bool(Table.halvesNotificationRate),
                dfu: MCUbootSlots.Faults(losesUploadOffsetAtReset: try fields.bool(Table.dfuLosesUploadOffsetAtReset),
                                         confirmsItself: try fields.bool(Table.dfuConfirmsItself),
                                         bricksOnInterruptedSwap: try fields.bool(Table.dfuBricksOnInterruptedSwap),
                                         skipsSignatureCheck: try fields.bool(Table.dfuSkipsSignatureCheck)))
        }
    }
}
