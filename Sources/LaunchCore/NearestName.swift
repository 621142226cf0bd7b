/// "Did you mean …?" for a name that is not one of the known ones: the closest known name by edit
/// distance (insertions, deletions, substitutions and swaps of two neighbours each count one), when
/// it is close enough to be a typo of it.
public enum NearestName {
    /// The known name closest to `name`, when at most a third of its characters (at least one, at
    /// most three) differ; the first of equally close names. `nil` when none is that close.
    public static func suggestion(for name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased())
        let allowed = min(3, max(1, typed.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in known where candidate != name {
            let distance = editDistance(typed, Array(candidate.lowercased()), limit: allowed)
            if distance <= allowed, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `"; did you mean drawing?"`, or `""` when no known name is close.
    public static func hint(for name: String, among known: [String]) -> String {
        suggestion(for: name, among: known).map { "; did you mean \($0)?" } ?? ""
    }

    /// The optimal-string-alignment distance between `a` and `b`; any value above `limit` is
    /// returned as `limit + 1` (names far apart in length are not compared letter by letter).
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
            }
            (before, previous, current) = (previous, current, before)
        }
        return min(previous[b.count], limit + 1)
    }
}
