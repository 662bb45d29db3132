import Foundation

/// How `hil … --json` prints an answer: one pretty-printed JSON document, keys sorted, slashes unescaped.
enum JSONOutput {
    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
