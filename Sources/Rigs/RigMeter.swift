import StrictJSON

/// A power meter of a rig (`meters`): what measures an accessory's supply current (`"meter": NAME` on the
/// accessory). A simulated meter measures a simulated accessory's current model on the world's clock; a
/// ppk2 is a Nordic Power Profiler Kit II on a serial port; a command meter is any program that records a
/// trace to CSV (`CommandMeterRecorder`), started for each case.
public struct RigMeter: Sendable, Hashable {
    /// What kind of meter it is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case simulated, ppk2, command
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
    /// A command meter's program and its arguments (`{csv}` in one becomes the file it writes); nil for others.
    public var command: [String]? = nil

    /// The supply voltage in volts.
    public var supplyVolts: Double { Double(supplyMillivolts) / 1000 }
}

extension RigMeter {
    private typealias Table = RigFormatTable.Meter

    /// Reads one `meters` entry: `name` and `kind` required; a ppk2 needs `port`; a command meter `command`; a
    /// simulated meter takes only `voltage_mV` besides (it has no port nor mode).
    init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> RigMeter in
            let name = try fields.string(Table.name)
            let kindText = try fields.string(Table.kind)
            guard let kind = Kind(rawValue: kindText) else { throw (fields.value(Table.kind) ?? value).fail("\"simulated\", \"ppk2\" or \"command\"") }
            try fields.restrict(to: Table.shape.allowedKeys(when: "kind", is: kind.rawValue), what: "unknown key for kind \"\(kind.rawValue)\"")
            let port = try fields.optionalString(Table.port)
            if kind == .ppk2, port == nil { throw InputError(at: "\(value.path).port", "missing; a ppk2 meter needs its serial port (/dev/ttyACM0 or usb:1915:c00a/SERIAL)") }
            let modeText = try fields.string(Table.mode)
            guard let mode = Mode(rawValue: modeText) else { throw (fields.value(Table.mode) ?? value).fail("\"source\" or \"ampere\"") }
            let command = try Self.command(fields, kind: kind, at: value.path)
            return RigMeter(name: name, kind: kind, port: port, mode: mode, supplyMillivolts: try fields.integer(Table.voltage), command: command)
        }
    }

    /// A command meter's `command`: a non-empty array of strings, the first a program, one holding `{csv}`.
    private static func command(_ fields: InputObject, kind: Kind, at path: String) throws(InputError) -> [String]? {
        guard kind == .command else { return nil }
        guard let value = fields.value(Table.command) else {
            throw InputError(at: "\(path).command", "missing; a command meter needs the program that records its CSV, e.g. [\"joulescope-csv\", \"{csv}\"]")
        }
        let items = try value.array("a command line as an array of strings (no shell is used)", nonEmpty: true)
        var words: [String] = []
        for (index, item) in items.enumerated() { words.append(try item.string(index == 0 ? "a program name" : "a string", allowEmpty: index > 0)) }
        guard words.contains(where: { $0.contains("{csv}") }) else {
            throw InputError(at: value.path, "no argument holds {csv}, the file the program is to write its trace to")
        }
        return words
    }
}
