/// The fields of one JSON object of a file hil reads, read strictly: its keys are declared when it is opened
/// (`InputValue.object(keys:)`) and any other key is an error naming the full field path and the closest
/// known key. Every reader names `PATH.KEY` and the value as written when a field is missing or wrong.
package final class InputObject {
    /// The object's field path; empty for the top level.
    package let path: String
    /// The keys this object may have.
    package let keys: [String]
    private let members: [String: JSONMember]
    private let order: [JSONMember]

    init(members: [JSONMember], path: String, keys: [String]) {
        self.path = path
        self.keys = keys
        self.order = members
        var byKey: [String: JSONMember] = [:]
        for member in members { byKey[member.key] = member }
        self.members = byKey
    }

    /// `PATH.KEY`.
    package func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Whether the object has the key.
    package func has(_ key: String) -> Bool { members[key] != nil }

    /// The field, if present.
    package func value(_ key: String) -> InputValue? {
        assert(keys.contains(key), "\(key) is read but not declared for \(path)")
        return members[key].map { InputValue($0.value, path: path(key)) }
    }

    /// The field, or `PATH.KEY: missing; expected EXPECTED`.
    package func required(_ key: String, _ expected: String) throws(InputError) -> InputValue {
        guard let value = value(key) else { throw InputError(at: path(key), "missing; expected \(expected)") }
        return value
    }

    /// Rejects a key this object does not have, with a did-you-mean.
    func rejectUnknownKeys() throws(InputError) {
        let known = Set(keys)
        for member in order where !known.contains(member.key) {
            throw unknown(member.key, among: keys, what: "unknown key")
        }
    }

    /// Narrows the keys once a field has said which form the object is (a switch's `kind`): a key outside
    /// `allowed` is an error naming `what` (`unknown key for kind "ykush"`).
    package func restrict(to allowed: [String], what: String) throws(InputError) {
        let set = Set(allowed)
        for member in order where !set.contains(member.key) { throw unknown(member.key, among: allowed, what: what) }
    }

    private func unknown(_ key: String, among known: [String], what: String) -> InputError {
        if let question = DidYouMean.question(for: key, among: known) {
            return InputError(at: path(key), "\(what); \(question)")
        }
        return InputError(at: path(key), "\(what) (known: \(known.sorted().joined(separator: ", ")))")
    }

    // Shorthands for the common fields.

    package func string(_ key: String, _ expected: String = "a non-empty string") throws(InputError) -> String {
        try required(key, expected).string(expected)
    }

    package func optionalString(_ key: String, _ expected: String = "a non-empty string") throws(InputError) -> String? {
        try value(key)?.string(expected)
    }

    package func bool(_ key: String, default fallback: Bool) throws(InputError) -> Bool {
        try value(key)?.bool() ?? fallback
    }

    package func integer(_ key: String, in range: ClosedRange<Int>, _ expected: String? = nil, default fallback: Int) throws(InputError) -> Int {
        try value(key)?.integer(in: range, expected) ?? fallback
    }

    package func number(_ key: String, in range: ClosedRange<Double>, _ expected: String? = nil, default fallback: Double) throws(InputError) -> Double {
        try value(key)?.number(in: range, expected) ?? fallback
    }
}
