/// A check the reader makes that a JSON Schema cannot express — a name that must exist elsewhere in the
/// file, a port used twice, two fields compared, a regular expression compiled — declared beside the rule
/// it concerns. The schema writes `comment` as the rule's `$comment`; `refusals` are words of the reader's
/// message for it, by which a test of the schema against the reader knows a refusal the schema cannot make.
/// A note with no refusals is a comment only.
package struct ReaderNote: Sendable, Hashable {
    package let comment: String
    package let refusals: [String]

    package init(_ comment: String, refusals: [String] = []) {
        self.comment = comment
        self.refusals = refusals
    }
}
