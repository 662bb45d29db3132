import Foundation
import Roles
import StrictJSON

extension NotificationSource {
    /// The keys of a `notify` entry.
    static let keys = ["characteristic", "every_ms", "prefix_hex", "counter", "waveform", "file"]

    /// Reads `{"characteristic": "2A37", "every_ms": 1000, "prefix_hex": "00", "counter" | "waveform" | "file": …}`;
    /// a file's path is relative to `directory` (the profile's).
    init(reading value: InputValue, directory: String) throws(InputError) {
        self = try value.object(keys: Self.keys, "a notification source object") { fields throws(InputError) -> NotificationSource in
            let characteristic = try AccessoryProfile.uuid(try fields.required("characteristic", "the UUID of a characteristic that notifies"))
            let interval = try fields.required("every_ms", "how often it notifies, from 10 to 3600000 ms")
                .integer(in: 10...3_600_000, "how often it notifies, from 10 to 3600000 ms")
            var prefix: [UInt8] = []
            if let hex = fields.value("prefix_hex") {
                let expected = "hex octets like \"00\" (at most 16)"
                guard let parsed = AccessoryProfile.hexBytes(try hex.string(expected, allowEmpty: true)), parsed.count <= 16 else { throw hex.fail(expected) }
                prefix = parsed
            }
            let given = ["counter", "waveform", "file"].filter { fields.has($0) }
            guard given.count == 1 else {
                if given.isEmpty { throw value.problem("missing a source: counter, waveform or file") }
                throw try fields.required(given[1], "").problem("a source is one of counter, waveform or file")
            }
            let kind: Kind
            if let counter = fields.value("counter") {
                kind = try Self.counter(counter)
            } else if let wave = fields.value("waveform") {
                kind = try Self.waveform(wave)
            } else {
                let file = try fields.required("file", "")
                if fields.has("prefix_hex") { throw try fields.required("prefix_hex", "").problem("a file's lines are whole values: no prefix") }
                kind = .values(try Self.values(file, directory: directory))
            }
            return NotificationSource(characteristic: characteristic, intervalMilliseconds: interval, prefix: prefix, kind: kind)
        }
    }

    static func octets(_ fields: InputObject) throws(InputError) -> Int {
        try fields.value("octets")?.integer(in: 1...4, "a width of 1 to 4 octets") ?? 1
    }

    /// `{"start": 60, "step": 1, "octets": 1}`.
    static func counter(_ value: InputValue) throws(InputError) -> Kind {
        try value.object(keys: ["start", "step", "octets"], "a counter object") { fields throws(InputError) -> Kind in
            .counter(start: try fields.value("start")?.integer(in: 0...0xFFFF_FFFF, "a start from 0 to 4294967295") ?? 0,
                     step: try fields.value("step")?.integer(in: -1_000_000...1_000_000, "a step from -1000000 to 1000000") ?? 1,
                     octets: try octets(fields))
        }
    }

    /// `{"shape": "sine", "period_ms": 10000, "min": 50, "max": 120, "octets": 1}`.
    static func waveform(_ value: InputValue) throws(InputError) -> Kind {
        try value.object(keys: ["shape", "period_ms", "min", "max", "octets"], "a waveform object") { fields throws(InputError) -> Kind in
            let shapes = Shape.allCases.map(\.rawValue)
            let shape = try fields.required("shape", "a shape (\(shapes.joined(separator: ", ")))")
                .choice("a shape", unknown: "shape", as: Shape.self)
            let octets = try octets(fields)
            let largest = (1 << (8 * octets)) - 1
            let minimum = try fields.required("min", "the wave's lowest value").integer(in: 0...largest, "a value from 0 to \(largest) (\(octets) octets)")
            let maximum = try fields.required("max", "the wave's highest value").integer(in: 0...largest, "a value from 0 to \(largest) (\(octets) octets)")
            guard minimum < maximum else { throw try fields.required("max", "").problem("max must be above min (\(minimum))") }
            let period = try fields.required("period_ms", "the wave's period").integer(in: 20...86_400_000, "a period from 20 ms to 24 h")
            return .waveform(shape, periodMilliseconds: period, minimum: minimum, maximum: maximum, octets: octets)
        }
    }

    /// A file of values, one per line as hex octets; blank lines and lines starting with `#` are skipped. It is
    /// an input file like the profile: read no further than `InputLimits.fileBytes`.
    static func values(_ value: InputValue, directory: String) throws(InputError) -> [[UInt8]] {
        let name = try value.string("a file of values, one per line as hex octets")
        let path = name.hasPrefix("/") ? name : URL(fileURLWithPath: directory).appendingPathComponent(name).path
        let data: [UInt8]
        do { data = try InputFile.contents(path, limit: InputLimits.standard.fileBytes) } catch {
            throw value.problem("\(path): \(error.message)")
        }
        var values: [[UInt8]] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            guard let octets = AccessoryProfile.hexBytes(text), !octets.isEmpty, octets.count <= 512 else {
                throw value.problem("\(path) line \(number + 1): expected hex octets (1 to 512), found '\(JSONValue.excerpt(text))'")
            }
            values.append(octets)
        }
        guard !values.isEmpty else { throw value.problem("\(path) holds no values") }
        return values
    }
}
