/// The identity of one test across runs, for `hil report --history`: the Swift Testing test ID without its
/// source location (which moves whenever the file above the test is edited), the accessory and the other
/// arguments. The repetitions of a case (`HIL_REPEAT`) share one key: they are several cases of the same
/// test in one run.
public struct HistoryTestKey: Hashable, Sendable {
    /// `Module.Suite/test(accessory:)`, the test ID less its `/File.swift:L:C`.
    public var testID: String
    public var accessory: String?
    public var arguments: [String]

    public init(testID: String, accessory: String?, arguments: [String]) {
        var id = testID
        if let location = TestIDParts(testID).sourceLocation, id.hasSuffix("/" + location) {
            id.removeLast(location.count + 1)
        }
        self.testID = id
        self.accessory = accessory
        self.arguments = arguments
    }

    /// The key of a record's test.
    public init(_ record: TestRecord) {
        self.init(testID: record.testID, accessory: record.accessory, arguments: record.arguments)
    }

    /// `Module.Suite/test(accessory:) [thermometer, interval 30 ms]`: the key as one string (history.json's
    /// `id`), for sorting and for people; grouping uses the fields.
    public var id: String {
        let tags = (accessory.map { [$0] } ?? []) + arguments
        return tags.isEmpty ? testID : "\(testID) [\(tags.joined(separator: ", "))]"
    }

    /// `CaseResult.displayName` of a case of this test without its repetition: `Suite/test [accessory, args]`.
    public static func displayName(_ record: TestRecord) -> String {
        var single = record
        single.repetition = nil
        return CaseResult.displayName(single)
    }
}
