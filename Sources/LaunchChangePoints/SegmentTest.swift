import LaunchStats

/// The significance test of a split: the Mann–Whitney U test of the point values on either side.
///
/// Apache Otava replaced E-Divisive's permutation test with a t-test of the two segments, which makes
/// the answer deterministic; a rank test does the same and keeps launch times' long right tail and
/// their occasional wild commit (a busy CI machine) from deciding it: on the synthetic history of
/// BENCHMARKS.md, the t-test found 2 of 5 planted steps where this test finds 4, with no more false ones.
/// It is the test `diff` and `check` already use, deterministic too (exact for small segments).
struct SegmentComparison: Equatable {
    var before: Segment
    var after: Segment
    var relativeChange: Double?
    var pValue: Double

    /// Compares `values[left]` with `values[right]` (adjacent, non-empty ranges), the split having been
    /// chosen among `positions` places: the test's p-value is multiplied by them (Bonferroni), so a
    /// split picked for looking unlike its neighbours is not taken for a step.
    init(_ values: [Double], left: Range<Int>, right: Range<Int>, positions: Int) {
        let a = values[left].sorted(), b = values[right].sorted()
        pValue = min(1, (MannWhitney.test(sortedA: a, sortedB: b)?.p ?? 1) * Double(max(1, positions)))
        before = Segment(median: MeasuredPoint.median(a), points: a.count)
        after = Segment(median: MeasuredPoint.median(b), points: b.count)
        relativeChange = ChangePoint.relativeChange(before: before.median, after: after.median)
    }

    /// |relativeChange|, infinite when the median before is 0 and the one after is not.
    var magnitude: Double {
        relativeChange.map(abs) ?? (after.median == before.median ? 0 : .infinity)
    }
}
