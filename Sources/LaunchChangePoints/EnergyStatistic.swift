/// E-Divisive means (Matteson and James, 2014) over a stretch of a series: the split that makes the
/// two sides most unlike in energy distance, with the second side running to the stretch's end as in
/// MongoDB's signal-processing implementation (Apache Otava also searches the second side's end κ,
/// in O(L²) windows; here whole stretches are searched, in O(L log L)).
///
/// For a stretch z[a..<b] and a split τ (X = z[a..<τ], n points; Y = z[τ..<b], m points):
///
///     Q(τ) = 2/(n+m) Σ|X−Y| − 2m/((n+m)(n−1)) Σ_{i<k}|X_i−X_k| − 2n/((n+m)(m−1)) Σ_{j<k}|Y_j−Y_k|
///
/// The within sums grow one point at a time, from the left for X and from the right for Y: the new
/// point's distance to those already in is count·value − sum below it plus sum − count·value above it,
/// read from a Fenwick tree over the stretch's ranks; the between sum is the whole stretch's within sum
/// less the two. So every split is scored in O(L log L), not the O(L³) of summing each afresh.
struct EnergyStatistic {
    /// The candidate split: the first index of the second side, and its Q.
    struct Candidate: Equatable {
        var index: Int
        var q: Double
    }

    /// The best split of `values[range]` with at least `minimumSegment` (≥ 2) points on each side;
    /// `nil` when the stretch is too short. Ties keep the earliest split.
    static func bestSplit(_ values: [Double], in range: Range<Int>, minimumSegment: Int) -> Candidate? {
        let length = range.count
        guard length >= 2 * minimumSegment, minimumSegment >= 2 else { return nil }
        let stretch = Array(values[range])
        let left = prefixWithinSums(stretch)
        let right = prefixWithinSums(stretch.reversed())
        let total = left[length], size = Double(length)
        var best = Candidate(index: range.lowerBound + minimumSegment, q: -.infinity)
        for k in minimumSegment...(length - minimumSegment) {
            let n = Double(k), m = Double(length - k)
            let leftWithin = left[k], rightWithin = right[length - k]
            let between = total - leftWithin - rightWithin
            let q = 2 * between / size - 2 * m * leftWithin / (size * (n - 1)) - 2 * n * rightWithin / (size * (m - 1))
            if q > best.q { best = Candidate(index: range.lowerBound + k, q: q) }
        }
        return best
    }

    /// W[k] = Σ_{i<j<k} |z_i − z_j| for k = 0…count: each point's distances to the points before it,
    /// added up through a Fenwick tree of counts and sums indexed by rank.
    static func prefixWithinSums(_ z: [Double]) -> [Double] {
        let ranks = Self.ranks(z)
        var counts = [Int](repeating: 0, count: z.count + 1)
        var sums = [Double](repeating: 0, count: z.count + 1)
        var within = [Double](repeating: 0, count: z.count + 1)
        var totalSum = 0.0
        for (k, value) in z.enumerated() {
            // Below: the points of lower rank (ties are ranked by position: their distance is 0 either way).
            var countBelow = 0, sumBelow = 0.0
            var i = ranks[k]
            while i > 0 {
                countBelow += counts[i]
                sumBelow += sums[i]
                i -= i & -i
            }
            let distances = (Double(countBelow) * value - sumBelow) + ((totalSum - sumBelow) - Double(k - countBelow) * value)
            within[k + 1] = within[k] + distances
            totalSum += value
            i = ranks[k] + 1
            while i <= z.count {
                counts[i] += 1
                sums[i] += value
                i += i & -i
            }
        }
        return within
    }

    /// Each value's rank, 0-based, ties broken by position.
    static func ranks(_ z: [Double]) -> [Int] {
        let order = z.indices.sorted { z[$0] < z[$1] || (z[$0] == z[$1] && $0 < $1) }
        var ranks = [Int](repeating: 0, count: z.count)
        for (rank, index) in order.enumerated() { ranks[index] = rank }
        return ranks
    }
}
