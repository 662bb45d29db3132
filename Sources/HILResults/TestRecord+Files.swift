import Foundation

extension TestRecord {
    /// Names for `properties`, so junit.xml and the report show every bench the same way.
    public enum PropertyKey {
        /// The adapter's moniker: `usb:0`, `hci-socket:0`, `sim:central`.
        public static let adapter = "adapter"
        /// From Read Local Version Information: the company name, the HCI/LMP version, the address.
        public static let controllerManufacturer = "controller.manufacturer"
        public static let controllerVersion = "controller.version"
        public static let controllerAddress = "controller.bdaddr"
        /// The power switch and port: `usb-hub:1-1 port 4`.
        public static let powerSwitch = "powerSwitch"
        /// Set when a power transition was accepted without being seen to happen (the switch's rig entry
        /// says `"verify": "none"`): `unverified (usb-hub:1-1.4 port 2 off: nothing enumerates behind the port)`.
        public static let powerVerification = "power.verification"
        /// The accessory as it identified itself: name, address, firmware.
        public static let accessoryIdentity = "accessory.identity"
        /// The first protocol violation the accessory committed (`ATT Exchange MTU Response with Server Rx
        /// MTU 0, …`), its octets as spaced hex (`violation.bytes`: `03 00 00`) and how many there were.
        public static let violation = "violation"
        public static let violationBytes = "violation.bytes"
        public static let violationCount = "violation.count"
    }

    /// The encoder for records and results: sorted keys, dates as ISO 8601 with milliseconds.
    public static func makeEncoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(date))
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// The decoder for records: dates as ISO 8601 with or without fractional seconds, or as a number
    /// (seconds since 1970 when above 1.2e9, else since 2001 — `JSONEncoder`'s default).
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) {
                return seconds > 1.2e9 ? Date(timeIntervalSince1970: seconds) : Date(timeIntervalSinceReferenceDate: seconds)
            }
            let text = try container.decode(String.self)
            guard let date = ISO8601.date(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an ISO 8601 date like 2026-11-29T14:02:11.250Z, found \"\(text)\"")
            }
            return date
        }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// Writes this record as `records/<case>.json` in the results directory, atomically, and returns its
    /// URL. This is how the HILTesting traits hand a test case to `hil run`.
    @discardableResult
    public func write(toResultsDirectory directory: URL) throws(ResultsError) -> URL {
        let layout = ResultsLayout(directory)
        let url = layout.recordURL(for: self)
        try PrivateDirectory.create(layout.records)
        let data: Data
        do { data = try Self.makeEncoder().encode(self) } catch {
            throw ResultsError(url.path, "cannot encode the record: \(error)")
        }
        try ResultsFile.write(data, to: url)
        return url
    }

    /// Reads one record file; the error names the file and the field that is wrong.
    public static func load(_ url: URL) throws(ResultsError) -> TestRecord {
        let data = try RegularFile.contents(of: url)
        if data.isEmpty { throw ResultsError(url.path, "is empty (a record is a JSON object)") }
        do { return try makeDecoder().decode(TestRecord.self, from: data) } catch let error as DecodingError {
            throw ResultsError(url.path, "not a valid test record: \(describe(error))")
        } catch {
            throw ResultsError(url.path, "not a valid test record: \(error)")
        }
    }

    /// Every `*.json` in `records/`, sorted by start time; unreadable files come back as errors, in name order,
    /// and so does a second record of a test case already recorded (its case name is another file's), which
    /// is left out rather than counted twice.
    public static func loadAll(in recordsDirectory: URL) -> (records: [TestRecord], errors: [ResultsError]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: recordsDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted()
        var records: [TestRecord] = []
        var errors: [ResultsError] = []
        var firstFile: [String: String] = [:]  // case name → the file that recorded it first
        for name in names {
            let url = recordsDirectory.appendingPathComponent(name)
            do {
                let record = try load(url)
                let caseName = ResultsLayout.caseName(record)
                if let first = firstFile[caseName] {
                    errors.append(ResultsError(url.path, "records the same test case as \(first) (\(record.testID)\(record.accessory.map { " on \($0)" } ?? "")): a test case has one record; remove one of the two"))
                    continue
                }
                firstFile[caseName] = name
                records.append(record)
            } catch { errors.append(error) }
        }
        return (records.sorted { ($0.started, $0.testID) < ($1.started, $1.testID) }, errors)
    }

    /// "timeline[2].lane: expected one of power, advertising, …" rather than Foundation's dump.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(path(context.codingPath)): \(underlying ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// ISO 8601 timestamps with milliseconds, in UTC.
enum ISO8601 {
    static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func date(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
