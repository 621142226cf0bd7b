/// What a bisection step decided of one commit.
public enum StepVerdict: Sendable, Equatable {
    /// Not worse than the good commit: the first bad commit is later.
    case good
    /// Worse: the first bad commit is this one or an earlier one.
    case bad
    /// Could not be measured (its build failed), as `git bisect skip`: the search tries a neighbour.
    case skipped(reason: String)
    /// Measured, but neither good nor bad could be told (time, after its re-measurement): the search stops.
    case undecided
}

/// One commit the search asked about, in the order asked.
public struct BisectStep: Sendable, Equatable {
    /// The commit's position in the range: 1 is the first commit after the good one, ``BisectSearch/count`` the bad one.
    public var position: Int
    public var verdict: StepVerdict
}

/// How a bisection ended.
public enum BisectOutcome: Sendable, Equatable {
    /// The first bad commit, by its position.
    case found(Int)
    /// Every commit up to the bad one is good: the bad side is not worse than the good one.
    case nothingToBisect
    /// The first bad commit is one of these positions (every one between was skipped); when the range
    /// reaches the bad end and the bad end was never measured bad, possibly none of them.
    case skippedRange(ClosedRange<Int>)
    /// The commit at `position` could not be decided: the first bad commit lies in `range`.
    case undecided(position: Int, range: ClosedRange<Int>)
}

/// A binary search for the first bad commit over the commits after a good one, up to a bad one
/// (positions `1...count`, the bad end last). Each step asks the commit nearest the middle of what is
/// still open; a skipped commit is replaced by the nearest open one not yet skipped, as `git bisect
/// skip` does. Without I/O: the caller's `classify` builds and measures.
///
/// When the bad end is not known to be bad (``badKnown`` false), it is one more commit to ask about
/// and "none is bad" one more answer: `count` commits and that answer take ceil(log2(count + 1))
/// steps, so a 64-commit range (the good commit, 62 between, the bad one) takes 6 steps after the
/// good commit's measurement. When it is known (measured before), ceil(log2(count)).
public struct BisectSearch: Sendable {
    /// The commits after the good one, the bad one included.
    public let count: Int
    /// Whether the bad end has been measured bad already (the search never asks about it then).
    public let badKnown: Bool

    public init(count: Int, badKnown: Bool) {
        precondition(count >= 1, "a range has at least the bad commit")
        self.count = count
        self.badKnown = badKnown
    }

    /// The most steps the search asks for when nothing is skipped.
    public var maximumSteps: Int {
        let outcomes = badKnown ? count : count + 1
        var steps = 0
        while (1 << steps) < outcomes { steps += 1 }
        return steps
    }

    /// Runs the search, asking `classify` about one position at a time.
    public func run(_ classify: (Int) throws -> StepVerdict) rethrows -> (outcome: BisectOutcome, steps: [BisectStep]) {
        // good < first bad <= bad: `bad` is `count + 1` while no commit has been seen bad.
        var good = 0
        var bad = badKnown ? count : count + 1
        var skipped: Set<Int> = []
        var steps: [BisectStep] = []
        while let position = nextPosition(good: good, bad: bad, skipped: skipped) {
            let verdict = try classify(position)
            steps.append(BisectStep(position: position, verdict: verdict))
            switch verdict {
            case .good: good = position
            case .bad: bad = position
            case .skipped: skipped.insert(position)
            case .undecided: return (.undecided(position: position, range: (good + 1)...min(bad, count)), steps)
            }
        }
        return (outcome(good: good, bad: bad), steps)
    }

    /// The open position nearest the middle of `good…bad` that was not skipped (the lower on a tie), or `nil`.
    func nextPosition(good: Int, bad: Int, skipped: Set<Int>) -> Int? {
        let middle = good + (bad - good) / 2
        let open = (good + 1)..<bad
        guard !open.isEmpty else { return nil }
        for distance in 0..<open.count {
            for candidate in [middle - distance, middle + distance] where open.contains(candidate) && !skipped.contains(candidate) {
                return candidate
            }
        }
        return nil
    }

    private func outcome(good: Int, bad: Int) -> BisectOutcome {
        if bad == count + 1 {
            // Never seen bad: nothing between was skipped means every commit is good.
            return good == count ? .nothingToBisect : .skippedRange((good + 1)...count)
        }
        return bad - good == 1 ? .found(bad) : .skippedRange((good + 1)...bad)
    }
}
