@testable import StrictJSON
import Testing

/// What a message costs is bounded by what it shows, not by the value it is about: the suggestion and the
/// quote of a value of megabytes take the work of a word's.
@Suite struct BoundedMessageWorkTests {
    /// The quadratic-looking cost of the 10 MB `do` was the did-you-mean: an edit-distance table of the value's
    /// length times each known action's, ten times over (249 s, 212 MB of characters). A value longer than every
    /// candidate by more than two is answered without a table; a near one fills only the tables of candidates of
    /// a length within its limit.
    @Test func didYouMeanWorkIsBoundedByTheKnownKeys() {
        let actions = ["disconnect", "vanish", "stop_answering_att", "service_changed", "notify_flood", "update_parameters", "rotate_address",
                       "require_pairing", "refuse_pairing", "forget_bond"]
        var cells = 0
        #expect(DidYouMean.candidates(for: String(repeating: "a", count: 1 << 20), among: actions, cells: &cells).isEmpty)
        #expect(cells == 0)
        // "disconect" (9) is within 2 of disconnect (10) and forget_bond (11) only: 9 × 10 + 9 × 11 cells.
        #expect(DidYouMean.candidates(for: "disconect", among: actions, cells: &cells) == ["disconnect"])
        #expect(cells == 9 * 10 + 9 * 11)
        // The prefix rule still answers a short start of a long key, without a table.
        cells = 0
        #expect(DidYouMean.candidates(for: "dropsLink", among: ["dropsLinkAfterMilliseconds", "name"], cells: &cells) == ["dropsLinkAfterMilliseconds"])
        #expect(cells == 0)
    }

    @Test func aQuotedValueIsRenderedOnlyAsFarAsItIsShown() {
        let long = JSONValue.string(String(repeating: "x", count: 1 << 20))
        #expect(long.quoted == "\"" + String(repeating: "x", count: 56) + "…")
        let items = JSONValue.array((0..<100_000).map { JSONNode(.number(String($0)), at: JSONPosition(line: 1, column: 1)) })
        #expect(items.quoted.hasPrefix("[0, 1, 2, 3,") && items.quoted.hasSuffix("…") && items.quoted.count == 58)
        #expect(JSONValue.string("ok").quoted == "\"ok\"")
    }
}
