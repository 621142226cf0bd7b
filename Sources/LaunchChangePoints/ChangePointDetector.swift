/// Finds the steps in series of measurements, deterministically (no permutations, no randomness):
/// the same series and options always give the same change points.
///
/// Wall-time series (each point the median of a commit's runs): E-Divisive means by binary
/// segmentation. The best split of the whole series (``EnergyStatistic``) is kept when the Mann–Whitney test of
/// the two sides, corrected for the positions the split was chosen from, passes the maximum p-value;
/// each side is then searched the same way, until no split passes. A merge pass, as in Apache Otava
/// (Fleming et al., "Hunter", ICPE 2023), then drops the weakest change point while one fails, with
/// its neighbours' segments recomputed: the one of largest p-value while it is over the maximum, then
/// the one of smallest change while it is under the minimum relative change.
///
/// Exact counts that repeat (deterministic instruction counts): every commit whose count differs from
/// its predecessor's begins a step, with p-value 0; no minimum segment, no minimum change.
public struct ChangePointDetector: Sendable {
    public let options: DetectionOptions

    /// A detector with `options`, refused when one is out of its range.
    public init(options: DetectionOptions = DetectionOptions()) throws(ChangePointError) {
        self.options = try options.validated()
    }

    /// The change points of each series, in the order given.
    public func detect(_ series: [ChangePointSeries]) -> [SeriesChangePoints] {
        series.map(detect)
    }

    /// The change points of one series, oldest first.
    public func detect(_ series: ChangePointSeries) -> SeriesChangePoints {
        let exact = series.isExact
        let indices = exact ? exactSteps(series.points) : statisticalSteps(series.values)
        return SeriesChangePoints(
            key: series.key, pointCount: series.points.count, exact: exact,
            changePoints: report(indices, of: series, exact: exact))
    }

    // MARK: Exact counts

    func exactSteps(_ points: [MeasuredPoint]) -> [Int] {
        guard points.count > 1 else { return [] }
        return (1..<points.count).filter { points[$0].firstCount != points[$0 - 1].firstCount }
    }

    // MARK: Wall time: divide, then merge

    func statisticalSteps(_ values: [Double]) -> [Int] {
        var found: [Int] = []
        divide(values, 0..<values.count, into: &found)
        return merge(found.sorted(), values)
    }

    /// E-Divisive by binary segmentation: the best split of `stretch`, kept when its test passes, then
    /// each side alike (an explicit stack, so a long series cannot exhaust the call stack).
    func divide(_ values: [Double], _ whole: Range<Int>, into found: inout [Int]) {
        var stretches = [whole]
        while let stretch = stretches.popLast() {
            guard let split = EnergyStatistic.bestSplit(values, in: stretch, minimumSegment: options.minimumSegmentLength) else { continue }
            let test = SegmentComparison(
                values, left: stretch.lowerBound..<split.index, right: split.index..<stretch.upperBound, positions: positions(stretch.count))
            guard test.pValue <= options.maximumPValue else { continue }
            found.append(split.index)
            stretches.append(split.index..<stretch.upperBound)
            stretches.append(stretch.lowerBound..<split.index)
        }
    }

    /// The split positions a stretch of `length` points offers.
    func positions(_ length: Int) -> Int {
        length - 2 * options.minimumSegmentLength + 1
    }

    /// Drops change points until every one left passes the maximum p-value and the minimum change.
    func merge(_ found: [Int], _ values: [Double]) -> [Int] {
        var points = found
        var tests = points.indices.map { comparison(at: $0, of: points, values) }
        while !tests.isEmpty {
            // The largest p-value (the earliest of equals); when it passes, the smallest change.
            var weakest = tests.indices.max { tests[$0].pValue < tests[$1].pValue || (tests[$0].pValue == tests[$1].pValue && $0 > $1) }!
            if tests[weakest].pValue <= options.maximumPValue {
                weakest = tests.indices.min { tests[$0].magnitude < tests[$1].magnitude || (tests[$0].magnitude == tests[$1].magnitude && $0 < $1) }!
                if tests[weakest].magnitude >= options.minimumRelativeChange { break }
            }
            points.remove(at: weakest)
            tests.remove(at: weakest)
            for neighbour in [weakest - 1, weakest] where points.indices.contains(neighbour) {
                tests[neighbour] = comparison(at: neighbour, of: points, values)
            }
        }
        return points
    }

    /// The test of `points[i]` against the segments up to its neighbours (or the series' ends).
    func comparison(at i: Int, of points: [Int], _ values: [Double]) -> SegmentComparison {
        let lower = i > 0 ? points[i - 1] : 0
        let upper = i + 1 < points.count ? points[i + 1] : values.count
        return SegmentComparison(values, left: lower..<points[i], right: points[i]..<upper, positions: positions(upper - lower))
    }

    // MARK: Report

    func report(_ indices: [Int], of series: ChangePointSeries, exact: Bool) -> [ChangePoint] {
        let values = series.values
        return indices.indices.map { i in
            let index = indices[i]
            let test = comparison(at: i, of: indices, values)
            return ChangePoint(
                index: index, commit: series.points[index].commit, previousCommit: series.points[index - 1].commit,
                before: test.before, after: test.after, relativeChange: test.relativeChange, pValue: exact ? 0 : test.pValue)
        }
    }
}
