/// "Did you mean …?" for a misspelt key: the closest known key by optimal-string-alignment distance
/// (Damerau–Levenshtein with adjacent transpositions), accepted when at most 1 edit, or 2 for keys of six
/// characters or more (about a third of the length); failing that, the one known key that starts with
/// what was written, when that is at least four characters (`dropsLink` → `dropsLinkAfterMilliseconds`).
///
/// The work is bounded by the known keys, not by what was written: a word more than two characters longer
/// than every known key is within no limit and the prefix of none, so it is answered after reading its first
/// characters, and a known key whose length differs by more than its limit is passed over without a table
/// (the distance is at least the difference in length). A value of megabytes costs what a word does.
package enum DidYouMean {
    /// The known key closest to `key`, if one is close enough; the first listed wins a tie.
    package static func closest(to key: String, among known: some Sequence<String>) -> String? {
        candidates(for: key, among: known).first
    }

    /// Every known key equally close to `key` and close enough, in the order given
    /// (`econnectMilliseconds` is one edit from both `reconnectMilliseconds` and `connectMilliseconds`).
    package static func candidates(for key: String, among known: some Sequence<String>) -> [String] {
        var cells = 0
        return candidates(for: key, among: known, cells: &cells)
    }

    /// `candidates(for:among:)`, adding to `cells` the cells of the distance tables it filled: the work done.
    static func candidates(for key: String, among known: some Sequence<String>, cells: inout Int) -> [String] {
        let known = Array(known)
        let longest = known.map(\.count).max() ?? 0
        guard key.prefix(longest + 3).count <= longest + 2 else { return [] }
        let keyCount = key.count
        let lowered = Array(key.lowercased())
        var best: [String] = []
        var bestDistance = Int.max
        var prefixed: [String] = []
        for candidate in known where candidate != key {
            let candidateLowered = Array(candidate.lowercased())
            if keyCount >= 4, candidateLowered.starts(with: lowered) { prefixed.append(candidate) }
            let limit = max(keyCount, candidate.count) >= 6 ? 2 : 1
            guard abs(lowered.count - candidateLowered.count) <= limit else { continue }
            let distance = Self.distance(lowered, candidateLowered, cells: &cells)
            guard distance <= limit, distance <= bestDistance else { continue }
            if distance < bestDistance { best = [] }
            bestDistance = distance
            if !best.contains(candidate) { best.append(candidate) }
        }
        if best.isEmpty, prefixed.count == 1 { return prefixed }
        return best
    }

    /// "did you mean a?", "did you mean a or b?", or nil when nothing is close.
    package static func question(for key: String, among known: some Sequence<String>) -> String? {
        let found = candidates(for: key, among: known)
        guard let last = found.last else { return nil }
        return "did you mean " + (found.count == 1 ? last : found.dropLast().joined(separator: ", ") + " or " + last) + "?"
    }

    /// The optimal-string-alignment distance between two strings, over their characters.
    package static func distance(_ a: String, _ b: String) -> Int {
        var cells = 0
        return distance(Array(a), Array(b), cells: &cells)
    }

    /// The distance over characters, three rows of the table at a time (reused, never copied), adding the
    /// cells filled to `cells`.
    static func distance(_ a: [Character], _ b: [Character], cells: inout Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], previousPrevious[j - 2] + 1)
                }
            }
            cells += b.count
            swap(&previousPrevious, &previous)
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
