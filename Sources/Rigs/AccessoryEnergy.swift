import StrictJSON

/// An accessory's energy budgets (`energy`), measured by the meter on its supply: the energy suites fail a case
/// with the measured figure and the budget.
public struct AccessoryEnergy: Sendable, Hashable {
    /// After a disconnect, it must settle: from `after` past the disconnect, over `window`, its average current
    /// at most `maximumMicroamperes`.
    public struct IdleAfterDisconnect: Sendable, Hashable {
        public var maximumMicroamperes: Double
        public var after: Duration
        public var window: Duration
    }

    /// Each advertising event's charge at most `maximumMicrocoulombs`, measured over `window` centred on an
    /// advertising report the central hears.
    public struct AdvertisingEvent: Sendable, Hashable {
        public var maximumMicrocoulombs: Double
        public var window: Duration
    }

    public var idleAfterDisconnect: IdleAfterDisconnect?
    public var advertisingEvent: AdvertisingEvent?
}

extension AccessoryEnergy {
    private typealias Table = RigFormatTable.Energy

    /// Reads `energy`: each budget optional, a misspelt key an error.
    init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> AccessoryEnergy in
            let idle = try fields.value(Table.idleAfterDisconnect).map { (value: InputValue) throws(InputError) -> IdleAfterDisconnect in
                try value.object(Table.Idle.shape) { idle throws(InputError) -> IdleAfterDisconnect in
                    IdleAfterDisconnect(maximumMicroamperes: try idle.number(Table.Idle.maximum), after: .milliseconds(try idle.number(Table.Idle.after)),
                                        window: .milliseconds(try idle.number(Table.Idle.window)))
                }
            }
            let advertising = try fields.value(Table.advertisingEvent).map { (value: InputValue) throws(InputError) -> AdvertisingEvent in
                try value.object(Table.Advertising.shape) { event throws(InputError) -> AdvertisingEvent in
                    AdvertisingEvent(maximumMicrocoulombs: try event.number(Table.Advertising.maximum), window: .milliseconds(try event.number(Table.Advertising.window)))
                }
            }
            return AccessoryEnergy(idleAfterDisconnect: idle, advertisingEvent: advertising)
        }
    }
}
