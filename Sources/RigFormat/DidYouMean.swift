/// "Did you mean …?" for a misspelt key: the closest known key by optimal-string-alignment distance
/// (Damerau–Levenshtein with adjacent transpositions), accepted when at most 1 edit, or 2 for keys of six
/// characters or more (about a third of the length); failing that, the one known key that starts with
/// what was written, when that is at least four characters (`dropsLink` → `dropsLinkAfterMilliseconds`).
public enum DidYouMean {
    /// The known key closest to `key`, if one is close enough; the first listed wins a tie.
    public static func closest(to key: String, among known: some Sequence<String>) -> String? {
        candidates(for: key, among: known).first
    }

    /// Every known key equally close to `key` and close enough, in the order given
    /// (`econnectMilliseconds` is one edit from both `reconnectMilliseconds` and `connectMilliseconds`).
    public static func candidates(for key: String, among known: some Sequence<String>) -> [String] {
        var best: [String] = []
        var bestDistance = Int.max
        var prefixed: [String] = []
        for candidate in known where candidate != key {
            if key.count >= 4, candidate.lowercased().hasPrefix(key.lowercased()) { prefixed.append(candidate) }
            let distance = Self.distance(key.lowercased(), candidate.lowercased())
            let limit = max(key.count, candidate.count) >= 6 ? 2 : 1
            guard distance <= limit, distance <= bestDistance else { continue }
            if distance < bestDistance { best = [] }
            bestDistance = distance
            if !best.contains(candidate) { best.append(candidate) }
        }
        if best.isEmpty, prefixed.count == 1 { return prefixed }
        return best
    }

    /// "did you mean a?", "did you mean a or b?", or nil when nothing is close.
    public static func question(for key: String, among known: some Sequence<String>) -> String? {
        let found = candidates(for: key, among: known)
        guard let last = found.last else { return nil }
        return "did you mean " + (found.count == 1 ? last : found.dropLast().joined(separator: ", ") + " or " + last) + "?"
    }

    /// The optimal-string-alignment distance between two strings, over their characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
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
            previousPrevious = previous
            previous = row
        }
        return previous[b.count]
    }
}
