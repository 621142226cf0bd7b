import Testing
@testable import LaunchStats
import LaunchCore

/// Results made from fixed durations, so every verdict can be checked exactly.
enum Fixed {
    static let host = HostInfo(cpuModel: "cpu", cores: 2, os: "Linux", architecture: "x86_64", swiftVersion: "6.3", hostname: "h")

    /// Runs whose phases take the given seconds: `phases` maps a name to its value per run.
    static func result(_ phases: [(String, [Double])], tier: String? = nil) -> LaunchResult {
        let count = phases.first?.1.count ?? 0
        let runs = (0..<count).map { i -> RunRecord in
            var start = 0.0
            var records: [PhaseRecord] = []
            for (name, values) in phases {
                records.append(PhaseRecord(name: name, start: start, duration: values[i]))
                start += values[i]
            }
            return RunRecord(index: i + 1, total: start, phases: records)
        }
        let configuration = tier.map {
            RunConfiguration(
                runs: count, warmup: 0, mode: .warm, timeout: 60,
                tier: TierInfo(name: $0, factors: [:], memoryBudget: nil, hostReference: nil))
        }
        return LaunchResult(
            date: "2026-11-22T00:00:00Z", manifest: ManifestInfo(name: "default", path: "m.json", sha256: ""),
            host: host, configuration: configuration, runs: runs)
    }

    /// Ten values around `center`, spread by ±`spread`.
    static func around(_ center: Double, spread: Double = 0.0005) -> [Double] {
        [-4.5, -3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5].map { center + $0 * spread / 4.5 }
    }
}

@Suite struct MannWhitneyTests {
    @Test func exactDistributionMatchesTheCombinatorics() {
        // n = 3, m = 2: the 10 arrangements give U = 0…6 with counts 1 1 2 2 2 1 1.
        #expect(MannWhitney.exactDistribution(n: 3, m: 2) == [1, 1, 2, 2, 2, 1, 1])
        #expect(MannWhitney.exactDistribution(n: 10, m: 10).reduce(0, +) == 184_756)
    }

    @Test func completelySeparatedSamplesAreSignificant() throws {
        let result = try #require(MannWhitney.test([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]))
        #expect(result.exact)
        #expect(result.u == 0)
        // Only the two most extreme of C(10, 5) = 252 arrangements: p = 2 / 252.
        #expect(abs(result.p - 2.0 / 252) < 1e-12)
    }

    @Test func interleavedSamplesAreNot() throws {
        let result = try #require(MannWhitney.test([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]))
        #expect(result.p > 0.5)
    }

    @Test func tiesUseTheNormalApproximation() throws {
        let result = try #require(MannWhitney.test([1, 1, 2, 2], [2, 3, 3, 3]))
        #expect(!result.exact)
        #expect(result.p > 0 && result.p < 0.2)
        #expect(MannWhitney.test([], [1]) == nil)
    }

    @Test func bootstrapIntervalIsDeterministicAndCoversTheShift() throws {
        let a = Fixed.around(0.100), b = Fixed.around(0.110)
        let first = try #require(Bootstrap.medianDifferenceInterval(a, b))
        let second = try #require(Bootstrap.medianDifferenceInterval(a, b))
        #expect(first == second)
        #expect(first.lower < 0.010 && first.upper > 0.010)
        #expect(first.lower > 0)
    }
}

@Suite struct ComparisonTests {
    @Test func verdictsOnFixedResults() throws {
        let a = Fixed.result([
            ("Init", Fixed.around(0.100)), ("drawing", Fixed.around(0.200)), ("theme", Fixed.around(0.050)),
            ("old", Fixed.around(0.010)), ("noisy", [0.01, 0.05, 0.02, 0.09, 0.03, 0.01, 0.06, 0.02, 0.08, 0.04])
        ])
        let b = Fixed.result([
            ("Init", Fixed.around(0.100)), ("drawing", Fixed.around(0.220)), ("theme", Fixed.around(0.040)),
            ("noisy", [0.02, 0.09, 0.01, 0.05, 0.08, 0.03, 0.02, 0.07, 0.04, 0.06]), ("new", Fixed.around(0.005))
        ])
        let comparison = Comparison(baseline: a, candidate: b)
        let verdicts = Dictionary(uniqueKeysWithValues: comparison.rows.map { ($0.path, $0.verdict) })
        #expect(comparison.rows.map(\.path) == ["Init", "drawing", "theme", "noisy", "new", "old"])
        #expect(verdicts == ["Init": .withinNoise, "drawing": .slower, "theme": .faster, "noisy": .inconclusive, "new": .added, "old": .removed])
        let drawing = comparison.rows[1]
        #expect(abs(drawing.baselineMedian! - 0.200) < 1e-12)
        #expect(abs(drawing.candidateMedian! - 0.220) < 1e-12)
        #expect(abs(drawing.change! - 0.020) < 1e-12)
        #expect(abs(drawing.changePercent! - 10) < 1e-9)
        #expect(abs(drawing.p! - 2.0 / 184_756) < 1e-12)
        #expect(comparison.rows[3].moreRunsNeeded != nil)
        #expect(comparison.regressions.map(\.path).contains("drawing"))
    }

    @Test func identicalDistributionsPass() {
        let a = Fixed.result([("Init", Fixed.around(0.100)), ("drawing", Fixed.around(0.200))])
        let comparison = Comparison(baseline: a, candidate: a)
        #expect(comparison.regressions.isEmpty)
        #expect(comparison.rows.allSatisfy { $0.verdict == .withinNoise })
        #expect(comparison.total.verdict == .withinNoise)
    }

    @Test func aRealChangeBelowTheThresholdIsWithinNoise() {
        // +3%: significant, but under 5%.
        let a = Fixed.result([("drawing", Fixed.around(0.200, spread: 0.0001))])
        let b = Fixed.result([("drawing", Fixed.around(0.206, spread: 0.0001))])
        let row = Comparison(baseline: a, candidate: b).rows[0]
        #expect((row.p ?? 1) < 0.01)
        #expect(row.verdict == .withinNoise)
    }

    @Test func theAbsoluteThresholdProtectsTinyPhases() {
        // +50% of 1 ms is 0.5 ms: under the 2 ms floor.
        let a = Fixed.result([("tiny", Fixed.around(0.001, spread: 0.00001))])
        let b = Fixed.result([("tiny", Fixed.around(0.0015, spread: 0.00001))])
        #expect(Comparison(baseline: a, candidate: b).rows[0].verdict == .withinNoise)
        let strict = Thresholds(percent: 5, seconds: 0.0001)
        #expect(Comparison(baseline: a, candidate: b, thresholds: strict).rows[0].verdict == .slower)
    }

    @Test func perPhaseThresholdsApply() {
        let a = Fixed.result([("drawing", Fixed.around(0.200))])
        let b = Fixed.result([("drawing", Fixed.around(0.220))])
        let loose = Thresholds(perPhase: ["drawing": 15])
        #expect(Comparison(baseline: a, candidate: b, thresholds: loose).rows[0].verdict == .withinNoise)
    }

    @Test func budgetsNameTierPhaseTimeAndBudget() throws {
        let result = Fixed.result([("Init", Fixed.around(0.5)), ("drawing", Fixed.around(1.5))], tier: "iphone-3gs")
        let budget = try Budget(
            json: Array(#"{"budgets": {"iphone-3gs": {"Total launch time": 1.9, "drawing": 2.0, "Init": 0.4}, "host": {"Init": 0.1}}}"#.utf8), file: "b.json")
        let violations = budget.violations(in: result)
        #expect(violations.map(\.phase) == ["Init", "Total launch time"])
        #expect(violations.allSatisfy { $0.tier == "iphone-3gs" })
        #expect(abs(violations[1].time - 2.0) < 1e-9)
        #expect(violations[1].budget == 1.9)
        #expect(budget.violations(in: Fixed.result([("Init", Fixed.around(0.05))])).isEmpty)
    }

    @Test func malformedBudgetsAreExplained() {
        #expect(throws: BudgetError.self) { try Budget(json: Array("{}".utf8), file: "b.json") }
        do {
            _ = try Budget(json: Array(#"{"budgets": {"host": {"Init": -1}}}"#.utf8), file: "b.json")
            Issue.record("a negative budget must fail")
        } catch {
            #expect(error.description == "b.json: budgets.host.Init: expected a positive number of seconds, found -1.0")
        }
    }
}

@Suite struct CaveatTests {
    @Test func differentTiersManifestsAndModesAreNamed() {
        var a = Fixed.result([("Init", Fixed.around(0.1))])
        a.manifest.sha256 = "aaaaaaaaaaaa"
        var b = Fixed.result([("Init", Fixed.around(0.1))], tier: "iphone-3gs")
        b.manifest.sha256 = "ffffffffffff"
        b.configuration?.mode = .cold
        #expect(
            Comparison.caveats(baseline: a, candidate: b) == [
                "the results are from different tiers (host and iphone-3gs)",
                "the manifests differ (default aaaaaaaa and default ffffffff)",
                "one result is warm, the other cold"
            ])
        #expect(Comparison.caveats(baseline: a, candidate: a).isEmpty)
    }
}

@Suite struct WilcoxonTests {
    @Test func exactDistributionCountsSubsetSums() {
        // Subsets of {1, 2, 3}: sums 0…6 occur 1 1 1 2 1 1 1 times.
        #expect(WilcoxonSignedRank.exactDistribution(n: 3) == [1, 1, 1, 2, 1, 1, 1])
        #expect(WilcoxonSignedRank.exactDistribution(n: 10).reduce(0, +) == 1024)
    }

    @Test func allPairsOneWayIsSignificant() throws {
        let a = (1...10).map(Double.init)
        let b = a.enumerated().map { $1 + 0.1 * Double($0 + 1) }
        let result = try #require(WilcoxonSignedRank.test(a, b))
        #expect(result.exact)
        #expect(result.wPlus == 55)
        #expect(abs(result.p - 2.0 / 1024) < 1e-12)
        #expect(WilcoxonSignedRank.test(a, a)?.p == 1)
        #expect(WilcoxonSignedRank.test([1], [1, 2]) == nil)
    }

    @Test func pairingSeesAShiftThatDriftHidesFromUnpairedTests() {
        // The machine drifts from 100 to 145 ms over the session; B is 6% slower than its neighbour A.
        let drift = (0..<10).map { 0.100 + 0.005 * Double($0) }
        let a = drift, b = drift.map { $0 * 1.06 }
        let unpaired = Comparison.compare(path: "drawing", name: "drawing", depth: 0, a, b, Thresholds())
        let paired = Comparison.compare(path: "drawing", name: "drawing", depth: 0, a, b, Thresholds(), paired: true)
        #expect(unpaired.verdict == .inconclusive)
        #expect(paired.verdict == .slower)
        #expect(abs((paired.p ?? 1) - 2.0 / 1024) < 1e-12)
    }
}

@Suite struct PairingThresholdTests {
    @Test func tooFewPairsFallBackToTheUnpairedTest() {
        #expect(!Comparison.signedRankCanReach(0.01, pairs: 7))
        #expect(Comparison.signedRankCanReach(0.01, pairs: 8))
        // Six clearly separated pairs: the signed-rank test could not go below 2/64, Mann–Whitney can.
        let a = [0.100, 0.101, 0.102, 0.103, 0.104, 0.105], b = a.map { $0 * 1.5 }
        let row = Comparison.compare(path: "p", name: "p", depth: 0, a, b, Thresholds(), paired: true)
        #expect(row.verdict == .slower)
        #expect(abs((row.p ?? 1) - 2.0 / 924) < 1e-12)
    }
}
