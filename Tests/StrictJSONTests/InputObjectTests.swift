import Testing
import StrictJSON

/// The strict field reader: unknown keys with a did-you-mean, values quoted as written.
@Suite struct RigObjectTests {
    static func read<T>(_ text: String, keys: [String], _ body: (InputObject) throws(InputError) -> T) throws(InputError) -> T {
        try InputDocument.parse(Array(text.utf8)).object(keys: keys, "an object", body)
    }

    static func message(_ text: String, keys: [String], _ body: (InputObject) throws(InputError) -> Void = { _ in }) -> String {
        do { try read(text, keys: keys, body); return "no error" } catch { return error.description }
    }

    @Test(arguments: [
        ("connectMilisecond", "connectMilliseconds"), ("budget", "budgets"), ("nmae", "name"), ("Name", "name"),
        ("adress", "address"), ("addresType", "addressType"), ("dropsLink", "dropsLinkAfterMilliseconds"),
    ])
    func didYouMeanNamesTheClosestKey(written: String, meant: String) {
        let keys = ["name", "budgets", "connectMilliseconds", "connectP95Milliseconds", "address", "addressType", "dropsLinkAfterMilliseconds"]
        #expect(DidYouMean.closest(to: written, among: keys) == meant)
    }

    @Test func farKeysGetTheListInstead() {
        #expect(DidYouMean.closest(to: "colour", among: ["name", "kind"]) == nil)
        #expect(DidYouMean.closest(to: "on", among: ["off"]) == nil, "two edits in a two-letter key is another word")
        #expect(Self.message(#"{"colour": 1}"#, keys: ["name", "kind"]) == "colour: unknown key (known: kind, name)")
        #expect(DidYouMean.distance("connectMilisecond", "connectMilliseconds") == 2)
        #expect(DidYouMean.distance("ab", "ba") == 1, "an adjacent transposition is one edit")
    }

    @Test func unknownKeysAreRefusedBeforeAnythingIsRead() {
        var read = false
        #expect(Self.message(#"{"budgets": {}, "budget": {}}"#, keys: ["budgets"]) { _ in read = true } == "budget: unknown key; did you mean budgets?")
        #expect(!read)
        let nested = #"{"budgets": {"connectMilisecond": 5}}"#
        #expect(Self.message(nested, keys: ["budgets"]) { fields throws(InputError) in
            _ = try fields.value("budgets")?.object(keys: ["connectMilliseconds"]) { _ in 0 }
        } == "budgets.connectMilisecond: unknown key; did you mean connectMilliseconds?")
    }

    @Test(arguments: [
        ("1.5", "port: expected a port number from 1 to 255, found 1.5"),
        ("1e22", "port: expected a port number from 1 to 255, found 1e22"),
        ("9223372036854775808", "port: expected a port number from 1 to 255, found 9223372036854775808"),
        ("-1000", "port: expected a port number from 1 to 255, found -1000"),
        ("\"2\"", #"port: expected a port number from 1 to 255, found "2""#),
        ("[2]", "port: expected a port number from 1 to 255, found [2]"),
        ("2", "no error"), ("2.0", "no error"), ("2e0", "no error"),
    ])
    func integersAreWholeAndInRange(text: String, expected: String) {
        #expect(Self.message(#"{"port": \#(text)}"#, keys: ["port"]) { fields throws(InputError) in
            _ = try fields.required("port", "a port").integer(in: 1...255, "a port number from 1 to 255")
        } == expected)
    }

    @Test func missingFieldsAndKindsAreNamed() {
        #expect(Self.message(#"{"a": {}}"#, keys: ["a"]) { fields throws(InputError) in
            _ = try fields.required("a", "x").object(keys: ["b"]) { (inner: InputObject) throws(InputError) in try inner.string("b", "a name") }
        } == "a.b: missing; expected a name")
        #expect(Self.message(#"{"a": [true]}"#, keys: ["a"]) { fields throws(InputError) in
            _ = try fields.required("a", "x").strings("an array of names")
        } == "a[0]: expected a non-empty string, found true")
        #expect(Self.message(#"{"a": 1e400}"#, keys: ["a"]) { fields throws(InputError) in
            _ = try fields.number("a", in: 0...10, default: 0)
        } == "a: expected a number from 0 to 10, found 1e400")
    }

    @Test func aFileNameIsPrefixedOnce() {
        let error = InputError(at: "budget", "unknown key; did you mean budgets?").inFile("rigs/x.json").inFile("other.json")
        #expect(error.description == "rig file rigs/x.json: budget: unknown key; did you mean budgets?")
        #expect(error.message == "budget: unknown key; did you mean budgets?")
        #expect(InputError(at: "", "expected an object, found []").description == "(top level): expected an object, found []")
    }
}
