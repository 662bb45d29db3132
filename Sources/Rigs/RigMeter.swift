import StrictJSON

/// A power meter of a rig (`meters`): what measures an accessory's supply current (`"meter": NAME` on the
/// accessory). A simulated meter measures a simulated accessory's current model on the world's clock; a
/// ppk2 is a Nordic Power Profiler Kit II on a serial port (declared and checked here; runs use it later).
public struct RigMeter: Sendable, Hashable {
    /// What kind of meter it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case simulated, ppk2
    }

    /// How a PPK2 is wired: `source` supplies the accessory at `voltage_mV` (its source meter mode), `ampere`
    /// measures a supply of the accessory's own in series (ampere meter mode).
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case source, ampere
    }

    public var name: String
    public var kind: Kind
    /// The PPK2's serial port (`/dev/ttyACM0` or `usb:1915:c00a/SERIAL`); nil for a simulated meter.
    public var port: String?
    public var mode: Mode
    /// The supply voltage in mV: what a PPK2 in source mode supplies, and what charge becomes energy at.
    public var supplyMillivolts: Int

    /// The supply voltage in volts.
    public var supplyVolts: Double { Double(supplyMillivolts) / 1000 }
}

extension RigMeter {
    private typealias Table = RigFormatTable.Meter

    /// Reads one `meters` entry: `name` and `kind` required; a ppk2 needs `port`; a simulated meter takes only
    /// `voltage_mV` besides (it has no port nor mode).
    init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> RigMeter in
            let name = try fields.string(Table.name)
            let kindText = try fields.string(Table.kind)
            guard let kind = Kind(rawValue: kindText) else { throw (fields.value(Table.kind) ?? value).fail("\"simulated\" or \"ppk2\"") }
            try fields.restrict(to: Table.shape.allowedKeys(when: "kind", is: kind.rawValue), what: "unknown key for kind \"\(kind.rawValue)\"")
            let port = try fields.optionalString(Table.port)
            if kind == .ppk2, port == nil { throw InputError(at: "\(value.path).port", "missing; a ppk2 meter needs its serial port (/dev/ttyACM0 or usb:1915:c00a/SERIAL)") }
            let modeText = try fields.string(Table.mode)
            guard let mode = Mode(rawValue: modeText) else { throw (fields.value(Table.mode) ?? value).fail("\"source\" or \"ampere\"") }
            return RigMeter(name: name, kind: kind, port: port, mode: mode, supplyMillivolts: try fields.integer(Table.voltage))
        }
    }
}
