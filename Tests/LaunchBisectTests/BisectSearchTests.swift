import LaunchBisect
import Testing

/// A fake measurer: commits at and after `culprit` are bad; `unbuildable` ones are skipped.
private func planted(_ culprit: Int?, unbuildable: Set<Int> = []) -> (Int) -> StepVerdict {
    { position in
        if unbuildable.contains(position) { return .skipped(reason: "build failed") }
        guard let culprit else { return .good }
        return position >= culprit ? .bad : .good
    }
}

@Test func everyPlantedCulpritIsFoundWithinTheStepBound() {
    for count in [1, 2, 3, 7, 16, 63, 64] {
        for badKnown in [false, true] {
            let search = BisectSearch(count: count, badKnown: badKnown)
            for culprit in 1...count {
                let (outcome, steps) = search.run(planted(culprit))
                #expect(outcome == .found(culprit), "count \(count) culprit \(culprit)")
                #expect(steps.count <= search.maximumSteps, "count \(count) culprit \(culprit): \(steps.count) steps")
                #expect(!badKnown || !steps.contains { $0.position == count }, "the known bad end is never asked about")
            }
        }
    }
}

@Test func aSixtyFourCommitRangeTakesSixStepsAfterTheGoodCommit() {
    // 64 commits: the good one, 62 between, the bad one (63 after the good one).
    let search = BisectSearch(count: 63, badKnown: false)
    #expect(search.maximumSteps == 6)
    for culprit in 1...63 {
        #expect(search.run(planted(culprit)).steps.count <= 6)
    }
    #expect(BisectSearch(count: 64, badKnown: true).maximumSteps == 6)
    #expect(BisectSearch(count: 64, badKnown: false).maximumSteps == 7)
}

@Test func aRangeWithNoBadCommitIsNothingToBisect() {
    let search = BisectSearch(count: 20, badKnown: false)
    let (outcome, steps) = search.run(planted(nil))
    #expect(outcome == .nothingToBisect)
    #expect(steps.last?.position == 20, "the bad end itself is asked about last")
}

@Test func aSkippedMidpointIsReplacedByANeighbourAndTheCulpritStillFound() {
    let search = BisectSearch(count: 16, badKnown: true)
    let (outcome, steps) = search.run(planted(11, unbuildable: [8]))
    #expect(outcome == .found(11))
    #expect(steps.first?.position == 8)
    #expect(steps.first?.verdict == .skipped(reason: "build failed"))
    #expect(steps.dropFirst().first?.position == 7 || steps.dropFirst().first?.position == 9)
}

@Test func skippedCommitsNextToTheCulpritLeaveARange() {
    let search = BisectSearch(count: 16, badKnown: true)
    let (outcome, steps) = search.run(planted(6, unbuildable: [4, 5]))
    #expect(outcome == .skippedRange(4...6))
    #expect(steps.filter { $0.verdict != .good && $0.verdict != .bad }.count == 2)
}

@Test func everyCommitSkippedGivesTheWholeRange() {
    let search = BisectSearch(count: 5, badKnown: true)
    let (outcome, steps) = search.run(planted(3, unbuildable: [1, 2, 3, 4]))
    #expect(outcome == .skippedRange(1...5))
    #expect(steps.count == 4)
}

@Test func anUndecidedStepStopsTheSearchWithWhatIsLeft() {
    let search = BisectSearch(count: 32, badKnown: true)
    var asked: [Int] = []
    let (outcome, steps) = search.run { position in
        asked.append(position)
        return position == 16 ? .good : .undecided
    }
    #expect(asked == [16, 24])
    #expect(outcome == .undecided(position: 24, range: 17...32))
    #expect(steps.count == 2)
}

@Test func theInstructionRuleIsExactWhenCountsRepeat() throws {
    let rule = try #require(InstructionRule(good: [1_000, 1_000]))
    #expect(rule.verdict([1_001, 1_001]) == .bad)
    #expect(rule.verdict([1_000, 1_000]) == .good)
    #expect(rule.verdict([999]) == .good)
    #expect(rule.verdict([]) == nil)
    #expect(InstructionRule(good: []) == nil)
}

@Test func theInstructionRuleAllowsTheGoodCommitsOwnSpread() throws {
    let rule = try #require(InstructionRule(good: [1_000, 1_010]))
    #expect(rule.limit == 1_020)
    #expect(rule.verdict([1_015, 1_020]) == .good)
    #expect(rule.verdict([1_021, 1_025]) == .bad)
    #expect(InstructionRule.median([3, 1, 2, 10]) == 2.5)
}
