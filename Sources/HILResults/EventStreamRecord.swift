import Foundation

/// One line of Swift Testing's JSON event stream, schema version 0 (`swift test
/// --event-stream-output-path FILE --event-stream-version 0`): either a `test` (discovered before the run,
/// with its parameterized cases) or an `event` (run started, test started/skipped/ended, test case
/// started/ended/cancelled, issue recorded, value attached, run ended). Fields this harness does not use
/// are ignored; unknown kinds are kept as `.other` so a newer toolchain does not break a run.
public enum EventStreamRecord: Sendable, Hashable {
    case test(TestDescription)
    case event(Event)
    /// A record kind this version does not know.
    case other(String)

    /// A `test` record.
    public struct TestDescription: Decodable, Sendable, Hashable {
        /// `Module.Suite/function(label:)/File.swift:L:C`, or `Module.Suite` for a suite.
        public var id: String
        /// `suite` or `function`.
        public var kind: String
        public var name: String
        public var displayName: String?
        public var isParameterized: Bool?
        public var sourceLocation: SourceLocation?
        /// The planned cases of a parameterized test.
        public var testCases: [TestCase]?

        public var isSuite: Bool { kind == "suite" }

        enum CodingKeys: String, CodingKey {
            case id, kind, name, displayName, isParameterized, sourceLocation
            case testCases = "_testCases"
        }
    }

    /// One case of a parameterized test: `displayName` renders its arguments (`"thermometer", 1`).
    public struct TestCase: Decodable, Sendable, Hashable {
        public var id: String
        public var displayName: String
    }

    /// `fileID` is `Module/File.swift`; `filePath` the absolute path when the toolchain gives it.
    public struct SourceLocation: Decodable, Sendable, Hashable, CustomStringConvertible {
        public var fileID: String
        public var filePath: String?
        public var line: Int
        public var column: Int

        enum CodingKeys: String, CodingKey {
            case fileID, line, column
            case filePath = "_filePath"
        }

        public init(fileID: String, filePath: String? = nil, line: Int, column: Int) {
            self.fileID = fileID
            self.filePath = filePath
            self.line = line
            self.column = column
        }

        /// `File.swift`.
        public var fileName: String { String(fileID.split(separator: "/").last ?? Substring(fileID)) }
        /// `File.swift:42`.
        public var description: String { "\(fileName):\(line)" }
    }

    /// An `event` record.
    public struct Event: Decodable, Sendable, Hashable {
        /// runStarted, testStarted, testCaseStarted, issueRecorded, valueAttached, testCaseCancelled,
        /// testCaseEnded, testCancelled, testSkipped, testEnded, runEnded, …
        public var kind: String
        public var instant: Instant
        public var messages: [Message]
        public var testID: String?
        public var testCase: TestCase?
        public var issue: Issue?
        public var comments: [String]?
        public var sourceLocation: SourceLocation?
        public var attachment: Attachment?

        enum CodingKeys: String, CodingKey {
            case kind, instant, messages, testID, issue, attachment
            case testCase = "_testCase"
            case comments = "_comments"
            case sourceLocation = "_sourceLocation"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(String.self, forKey: .kind)
            instant = try container.decode(Instant.self, forKey: .instant)
            messages = try container.decodeIfPresent([Message].self, forKey: .messages) ?? []
            testID = try container.decodeIfPresent(String.self, forKey: .testID)
            testCase = try container.decodeIfPresent(TestCase.self, forKey: .testCase)
            issue = try container.decodeIfPresent(Issue.self, forKey: .issue)
            comments = try container.decodeIfPresent([String].self, forKey: .comments)
            sourceLocation = try container.decodeIfPresent(SourceLocation.self, forKey: .sourceLocation)
            attachment = try container.decodeIfPresent(Attachment.self, forKey: .attachment)
        }

        /// The text of the first message with `symbol`, e.g. `fail`.
        public func text(symbol: String) -> String? { messages.first { $0.symbol == symbol }?.text }
    }

    public struct Instant: Decodable, Sendable, Hashable {
        /// Monotonic seconds.
        public var absolute: Double
        public var since1970: Double
        public var date: Date { Date(timeIntervalSince1970: since1970) }
    }

    /// A line of the human-readable rendering: `symbol` is default, details, fail, pass, skip,
    /// passWithKnownIssue, _attachment, …
    public struct Message: Decodable, Sendable, Hashable {
        public var symbol: String
        public var text: String
    }

    public struct Issue: Decodable, Sendable, Hashable {
        public var isKnown: Bool
        public var sourceLocation: SourceLocation?
        public var error: ErrorDescription?

        enum CodingKeys: String, CodingKey {
            case isKnown, sourceLocation
            case error = "_error"
        }
    }

    public struct ErrorDescription: Decodable, Sendable, Hashable {
        public var description: String
    }

    public struct Attachment: Decodable, Sendable, Hashable {
        public var preferredName: String?
        public var path: String?

        enum CodingKeys: String, CodingKey {
            case preferredName = "_preferredName"
            case path
        }
    }
}

extension EventStreamRecord {
    /// Decodes one line. Throws a message naming what is wrong (the caller adds file and line).
    public static func decode(line: some DataProtocol) throws(EventStreamLineError) -> EventStreamRecord {
        let data = Data(line)
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw EventStreamLineError("not JSON: \(Self.snippet(data))")
        }
        guard let fields = object as? [String: Any] else { throw EventStreamLineError("expected a JSON object, found \(Self.snippet(data))") }
        guard let version = fields["version"] as? Int else { throw EventStreamLineError("has no \"version\"") }
        guard version == 0 else { throw EventStreamLineError("event stream version \(version) is not supported (hil reads version 0)") }
        guard let kind = fields["kind"] as? String else { throw EventStreamLineError("has no \"kind\"") }
        guard fields["payload"] is [String: Any] else { throw EventStreamLineError("has no \"payload\" object") }
        let decoder = JSONDecoder()
        do {
            switch kind {
            case "test": return .test(try decoder.decode(Envelope<TestDescription>.self, from: data).payload)
            case "event": return .event(try decoder.decode(Envelope<Event>.self, from: data).payload)
            default: return .other(kind)
            }
        } catch let error as DecodingError {
            throw EventStreamLineError("a \(kind) record that does not decode: \(TestRecord.describe(error))")
        } catch {
            throw EventStreamLineError("a \(kind) record that does not decode: \(error)")
        }
    }

    static func snippet(_ data: Data) -> String {
        let text = String(decoding: data.prefix(60), as: UTF8.self)
        return data.count > 60 ? "'\(text)…'" : "'\(text)'"
    }
}

/// `{"payload": …}`: the part of a line that is decoded by type.
private struct Envelope<Payload: Decodable>: Decodable { var payload: Payload }

/// Why one event stream line cannot be used.
public struct EventStreamLineError: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
