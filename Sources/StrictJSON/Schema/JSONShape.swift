/// An object of an input file: its fields (every other key is an error, and its did-you-mean is among these),
/// the conditions between them a schema can state (`if kind is "command" then on and off are required and
/// only these keys are allowed`), and the reader's own checks (`notes`).
package struct JSONShape: Sendable {
    /// The name of its definition and of its section in the reference (`powerReference`).
    package let name: String
    package let description: String?
    package let fields: [JSONField]
    package var conditions: [Condition] = []
    package var notes: [ReaderNote] = []
    /// At least this many keys (`match` needs one).
    package var minProperties: Int? = nil
    /// The rule of every value when any key is allowed (a process's `environment`); nil: only `fields`.
    package var anyKey: JSONRule? = nil

    package init(_ name: String, description: String? = nil, _ fields: [JSONField], conditions: [Condition] = [],
                notes: [ReaderNote] = [], minProperties: Int? = nil, anyKey: JSONRule? = nil) {
        self.name = name
        self.description = description
        self.fields = fields
        self.conditions = conditions
        self.notes = notes
        self.minProperties = minProperties
        self.anyKey = anyKey
    }

    /// The keys, in order.
    package var keys: [String] { fields.map(\.key) }

    /// The required keys, in order.
    package var requiredKeys: [String] { fields.filter(\.isRequired).map(\.key) }

    /// The field `key`, if declared.
    package func field(_ key: String) -> JSONField? { fields.first { $0.key == key } }

    /// What holds when field `key` is `value` (written as `if`/`then`).
    package struct Condition: Sendable {
        package let key: String
        package let value: String
        /// Keys then required.
        package var requires: [String] = []
        /// The only keys then allowed; nil: any of the shape's.
        package var onlyKeys: [String]? = nil
        /// Rules then for some fields (`protection` must be `encryption`).
        package var properties: [(String, OrderedJSON)] = []
        /// Definitions then to hold too (`portsOrPort`).
        package var also: [JSONDefinition] = []

        package init(when key: String, is value: String, requires: [String] = [], onlyKeys: [String]? = nil,
                    properties: [(String, OrderedJSON)] = [], also: [JSONDefinition] = []) {
            self.key = key
            self.value = value
            self.requires = requires
            self.onlyKeys = onlyKeys
            self.properties = properties
            self.also = also
        }
    }

    /// The keys allowed when `key` is `value`: a condition's `onlyKeys`, else every key.
    package func allowedKeys(when key: String, is value: String) -> [String] {
        conditions.first { $0.key == key && $0.value == value }?.onlyKeys ?? keys
    }

    func childRules(seen: inout Set<String>) -> [JSONRule] {
        fields.map(\.rule) + (anyKey.map { [$0] } ?? [])
            + conditions.flatMap(\.also).filter { seen.insert($0.name).inserted }.map(\.rule)
    }
}
