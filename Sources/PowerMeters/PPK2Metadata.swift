import Foundation

/// What a PPK2 answers to GET_META_DATA: lines of `key: value` ending with a line `END` — its calibration
/// (`R0`…`R4`, `GS0`…, `GI0`…, `O0`…, `S0`…, `I0`…, `UG0`…), whether it was calibrated (`Calibrated`), its
/// hardware (`HW`) and input-amplifier (`IA`) revisions. Keys this reader does not know are kept in `other`,
/// not refused: this is a device's answer, whose firmware may add keys, not a file a user wrote.
package struct PPK2Metadata: Equatable, Sendable {
    package var calibration: PPK2Calibration
    package var calibrated: String?
    package var hardware: String?
    package var inputAmplifier: String?
    package var other: [String: String]

    /// The most a PPK2's metadata takes; more without `END` is not a PPK2.
    package static let maximumLength = 4096

    /// Whether `text` (what the port gave so far) holds the whole metadata: a line `END`.
    package static func isComplete(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { $0.trimmingCharacters(in: .whitespaces) == "END" }
    }

    /// Reads the metadata in `text`, up to its `END` line. Throws `PowerMeterError(.protocolViolation)` for a
    /// missing `END`, a line that is not `key: value`, a calibration value that is not a number, or a range
    /// index past 4.
    package init(_ text: String) throws(PowerMeterError) {
        var calibration = PPK2Calibration.defaults
        var other: [String: String] = [:]
        var calibrated: String?, hardware: String?, inputAmplifier: String?
        var ended = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line == "END" { ended = true; break }
            guard let colon = line.firstIndex(of: ":") else {
                throw PowerMeterError(.protocolViolation, "PPK2 metadata: '\(line.prefix(60))' is not 'key: value'")
            }
            let key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            switch key {
            case "Calibrated": calibrated = value
            case "HW": hardware = value
            case "IA": inputAmplifier = value
            default:
                guard let (field, index) = Self.calibrationField(key) else { other[key] = value; continue }
                guard let number = Double(value), number.isFinite else {
                    throw PowerMeterError(.protocolViolation, "PPK2 metadata: \(key) is '\(value.prefix(30))', not a number")
                }
                // A zero shunt (seen on some PPK2s) would divide by zero: the nominal one stays, as every client keeps it.
                if field == \.r && number == 0 { continue }
                calibration.ranges[index][keyPath: field] = number
            }
        }
        guard ended else {
            throw PowerMeterError(.protocolViolation, "PPK2 metadata: no END line in \(text.utf8.count) octets")
        }
        self.calibration = calibration
        self.calibrated = calibrated
        self.hardware = hardware
        self.inputAmplifier = inputAmplifier
        self.other = other
    }

    /// `R3` → (\.r, 3); nil for a key that is no calibration field of ranges 0 to 4.
    private static func calibrationField(_ key: String) -> (WritableKeyPath<PPK2Calibration.Range, Double>, Int)? {
        let fields: [(String, WritableKeyPath<PPK2Calibration.Range, Double>)] = [
            ("GS", \.gs), ("GI", \.gi), ("UG", \.ug), ("R", \.r), ("O", \.o), ("S", \.s), ("I", \.i),
        ]
        for (prefix, field) in fields where key.hasPrefix(prefix) {
            let rest = key.dropFirst(prefix.count)
            guard rest.count == 1, let index = Int(rest), (0...4).contains(index) else { continue }
            return (field, index)
        }
        return nil
    }
}
