/// One value of a file hil reads (a rig, a profile, a fault plan) at its field path (`accessories[1].power.port`), with typed readers whose
/// errors name the path, what was expected and the value as written:
/// `accessories[1].power.port: expected a port number from 1 to 255, found 1.5`.
public struct InputValue: Sendable {
    package let node: JSONNode
    /// The field path; empty for the top level.
    package let path: String

    package init(_ node: JSONNode, path: String) {
        self.node = node
        self.path = path
    }

    /// The value as written, for messages.
    package var found: String { node.value.quoted }

    /// `PATH: expected EXPECTED, found VALUE`.
    package func fail(_ expected: String) -> InputError { InputError(at: path, "expected \(expected), found \(found)") }

    /// `PATH: MESSAGE`.
    package func problem(_ message: String) -> InputError { InputError(at: path, message) }

    /// A string; empty only when `allowEmpty`.
    package func string(_ expected: String = "a non-empty string", allowEmpty: Bool = false) throws(InputError) -> String {
        guard case .string(let text) = node.value, allowEmpty || !text.isEmpty else { throw fail(expected) }
        return text
    }

    /// A string that is one of `known`: `expected` says what (`an action`) and `noun` names an unknown one
    /// (`unknown action 'jump'`), with a did-you-mean or else the known words.
    package func word(_ expected: String, unknown noun: String, among known: [String]) throws(InputError) -> String {
        let text = try string("\(expected) (\(known.joined(separator: ", ")))")
        guard known.contains(text) else {
            let hint = DidYouMean.question(for: text, among: known).map { "; \($0)" } ?? " (known: \(known.joined(separator: ", ")))"
            throw problem("unknown \(noun) '\(JSONValue.excerpt(text))'\(hint)")
        }
        return text
    }

    /// A string naming one case of `Choice` by its raw value, read as `word` reads it.
    package func choice<Choice: RawRepresentable & CaseIterable>(_ expected: String, unknown noun: String,
                                                                 as _: Choice.Type = Choice.self) throws(InputError) -> Choice
        where Choice.RawValue == String {
        let known = Choice.allCases.map(\.rawValue)
        let text = try word(expected, unknown: noun, among: known)
        guard let choice = Choice.allCases.first(where: { $0.rawValue == text }) else { throw fail(expected) }
        return choice
    }

    package func bool() throws(InputError) -> Bool {
        guard case .bool(let value) = node.value else { throw fail("true or false") }
        return value
    }

    /// A whole number in `range` (`1.0` and `1e2` count; `1.5`, `1e22` and `9223372036854775808` beyond an
    /// Int's range do not).
    package func integer(in range: ClosedRange<Int>, _ expected: String? = nil) throws(InputError) -> Int {
        let expected = expected ?? "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard case .number(let text) = node.value else { throw fail(expected) }
        if let value = Int(text), range.contains(value) { return value }
        if let value = Double(text), value.isFinite, value == value.rounded(),
           Double(range.lowerBound) <= value, value <= Double(range.upperBound), let exact = Int(exactly: value), range.contains(exact) {
            return exact
        }
        throw fail(expected)
    }

    /// A whole number from 0 to 2^64 − 1.
    package func unsigned64(_ expected: String = "a whole number from 0 to 18446744073709551615") throws(InputError) -> UInt64 {
        guard case .number(let text) = node.value, let value = UInt64(text) else { throw fail(expected) }
        return value
    }

    /// A finite number that `isValid` accepts (`expected` says which).
    package func number(_ expected: String, where isValid: (Double) -> Bool) throws(InputError) -> Double {
        guard case .number(let text) = node.value, let value = Double(text), value.isFinite, isValid(value) else { throw fail(expected) }
        return value
    }

    /// A finite number in `range`.
    package func number(in range: ClosedRange<Double>, _ expected: String? = nil) throws(InputError) -> Double {
        try number(expected ?? "a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))") { range.contains($0) }
    }

    /// The elements of an array, each at `PATH[i]`.
    package func array(_ expected: String = "an array", nonEmpty: Bool = false) throws(InputError) -> [InputValue] {
        guard case .array(let items) = node.value, !(nonEmpty && items.isEmpty) else { throw fail(expected) }
        return items.enumerated().map { InputValue($1, path: "\(path)[\($0)]") }
    }

    /// An array of strings (each non-empty unless `allowEmpty`).
    package func strings(_ expected: String, element: String = "a non-empty string", nonEmpty: Bool = false,
                        allowEmpty: Bool = false) throws(InputError) -> [String] {
        var result: [String] = []
        for item in try array(expected, nonEmpty: nonEmpty) { result.append(try item.string(element, allowEmpty: allowEmpty)) }
        return result
    }

    /// Reads an object whose keys are `keys`: any other key is rejected first, with a did-you-mean
    /// (`budgets.connectMilisecond: unknown key; did you mean connectMilliseconds?`), then `read` reads
    /// the fields.
    package func object<T>(keys: [String], _ expected: String = "an object",
                          _ read: (InputObject) throws(InputError) -> T) throws(InputError) -> T {
        guard case .object(let members) = node.value else { throw fail(expected) }
        let object = InputObject(members: members, path: path, keys: keys)
        try object.rejectUnknownKeys()
        return try read(object)
    }

    /// `0.001`, `600`, `7.5`.
    package static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
