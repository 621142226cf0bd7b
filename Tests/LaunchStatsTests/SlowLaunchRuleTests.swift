import Testing
import LaunchCore
@testable import LaunchStats

/// `Why it is slow`: each rule fires past its threshold, stays silent below it, and nothing is
/// said when no rule fires.
@Suite struct SlowLaunchRuleTests {
    /// A run of top-level phases laid end to end: (name, kind, seconds).
    func run(_ phases: [(String, PhaseKind, Double)], firstFrame: Double? = nil, counters: [String: Int] = [:], thread: Int = 0) -> RunRecord {
        var start = 0.0
        var records: [PhaseRecord] = []
        for (name, kind, seconds) in phases {
            records.append(PhaseRecord(name: name, kind: kind, start: start, duration: seconds, thread: thread))
            start += seconds
        }
        var run = RunRecord(total: start, phases: records)
        if let firstFrame { run.marks = [MarkRecord(name: "first frame", time: firstFrame)] }
        run.counters = counters.sorted { $0.key < $1.key }.map { CounterRecord(name: $0.key, value: $0.value) }
        return run
    }

    func rules(_ runs: [RunRecord]) -> [String] { SlowLaunchDiagnosis.reasons(runs).map(\.rule) }

    @Test func aQuickBalancedLaunchHasNoReason() {
        let quick = run([("Init", .cpu, 0.05), ("loading images", .decode, 0.01), ("drawing", .draw, 0.04)], firstFrame: 0.1)
        #expect(SlowLaunchDiagnosis.reasons([quick, quick]).isEmpty)
    }

    @Test func decodingOnTheMainThreadFiresOverItsShareNotOnAWorker() {
        let decoding = run([("Init", .cpu, 0.1), ("loading images", .decode, 0.3)])
        let reasons = SlowLaunchDiagnosis.reasons([decoding])
        #expect(reasons.first?.rule == "decodeOnMainThread")
        #expect(
            reasons.first?.message
                == "decoding took 75% of the launch on the main thread (over 20%): try backgroundDecode (decode on worker threads, draw placeholders first), or decode fewer or smaller images at launch"
        )
        #expect(rules([run([("Init", .cpu, 0.1), ("loading images", .decode, 0.3)], thread: 1)]) == [])
        #expect(rules([run([("Init", .cpu, 0.9), ("loading images", .decode, 0.1)])]) == [])
    }

    @Test func withBackgroundDecodeTheAdviceNamesWhatStillDecodesOnTheMainThread() {
        let decoding = run(
            [("Init", .cpu, 0.1), ("loading images", .decode, 0.2), ("drawing", .draw, 0.1)],
            counters: [AppInterface.imagesQueuedForWorkersCounter: 6])
        #expect(
            SlowLaunchDiagnosis.reasons([decoding]).first?.message
                == "decoding took 50% of the launch on the main thread (over 20%): the images already decode on worker threads (backgroundDecode); the largest decode left on the main thread is 'loading images': make it smaller, or show less before the first frame"
        )
    }

    /// The saved snapshot decoded as the first frame is the first frame itself: the first-frame rule
    /// judges it, the decode rule leaves it out (and what is nested in it).
    @Test func theSnapshotShownFirstIsNotCountedAsDecoding() {
        var shown = run([("showing snapshot", .decode, 0.3), ("Init", .cpu, 0.1), ("drawing", .draw, 0.1)], counters: ["snapshot shown": 1])
        shown.phases.append(PhaseRecord(name: "decoding Loading.png", kind: .decode, start: 0.01, duration: 0.25, depth: 1, parent: 0))
        #expect(!rules([shown]).contains("decodeOnMainThread"))
        let alsoImages = run([("showing snapshot", .decode, 0.3), ("loading images", .decode, 0.2), ("drawing", .draw, 0.5)])
        #expect(SlowLaunchDiagnosis.mainThreadSeconds(of: .decode, in: alsoImages) == 0.2)
    }

    @Test func nestedPhasesOfTheSameKindAreCountedOnce() {
        var nested = run([("Init", .cpu, 0.5), ("loading images", .decode, 0.5)])
        nested.phases.append(PhaseRecord(name: "decoding a.png", kind: .decode, start: 0.5, duration: 0.4, depth: 1, parent: 1))
        #expect(SlowLaunchDiagnosis.mainThreadSeconds(of: .decode, in: nested) == 0.5)
    }

    @Test func blockingIOFiresButNotForProcessStart() {
        #expect(rules([run([("reading", .io, 0.3), ("Init", .cpu, 0.7)])]).first == "blockingIOOnMainThread")
        #expect(rules([run([("process start", .io, 0.3), ("Init", .cpu, 0.7)])]) == [])
    }

    @Test func aLateFirstFrameSuggestsSnapshotFirstUnlessItIsOnAlready() {
        let late = run([("Init", .cpu, 0.6), ("drawing", .draw, 0.4)], firstFrame: 1.0)
        let reasons = SlowLaunchDiagnosis.reasons([late])
        #expect(reasons.map(\.rule) == ["lateFirstFrame"])
        #expect(reasons[0].message.hasPrefix("first frame at 1.00 s (over 400 ms): try snapshotFirst"))
        let shown = run([("showing snapshot", .cpu, 0.6), ("drawing", .draw, 0.4)], firstFrame: 0.6, counters: ["snapshot shown": 1])
        #expect(
            SlowLaunchDiagnosis.reasons([shown]).first?.message
                == "first frame at 600 ms (over 400 ms): the saved snapshot is shown first already; the largest phase before it is 'showing snapshot'")
        #expect(rules([run([("Init", .cpu, 0.6)], firstFrame: 0.3)]) == [])
    }

    @Test func repeatedLayoutFiresOnlyWithMorePassesThanOrientations() {
        let phases: [(String, PhaseKind, Double)] = [("Init", .cpu, 0.5), ("drawing", .draw, 0.5)]
        let many = SlowLaunchDiagnosis.reasons([run(phases, counters: ["layout passes": 7, "orientations laid out": 1])])
        #expect(many.first?.message == "7 layout passes for 1 orientation: try coalescedLayout (one pass after all the settings)")
        #expect(rules([run(phases, counters: ["layout passes": 2, "orientations laid out": 2])]) == [])
        #expect(rules([run(phases, counters: ["layout passes": 2])]) == [])  // Without the orientations it cannot tell.
    }

    @Test func anUnusedStageFiresWhenItCostsAndInEveryRun() {
        let phases: [(String, PhaseKind, Double)] = [("Init", .cpu, 0.9), ("loading constants", .io, 0.1)]
        let unused = run(phases, counters: ["unused at launch: loading constants": 1])
        let reasons = SlowLaunchDiagnosis.reasons([unused, unused])
        #expect(reasons.map(\.rule) == ["unusedAtLaunch"])
        #expect(reasons[0].message == "'loading constants' ran at launch (10% of it) but nothing used it before interactive: make it lazy")
        #expect(rules([unused, run(phases)]) == [])  // Used in one run.
        #expect(rules([run([("Init", .cpu, 0.999), ("loading constants", .io, 0.001)], counters: ["unused at launch: loading constants": 1])]) == [])
    }

    @Test func sliversAreNamedOnlyBesideARealReason() {
        let phases: [(String, PhaseKind, Double)] = [
            ("a", .cpu, 0.001), ("b", .cpu, 0.001), ("c", .cpu, 0.001), ("d", .cpu, 0.001), ("e", .cpu, 0.001), ("images", .decode, 0.5)
        ]
        let reasons = SlowLaunchDiagnosis.reasons([run(phases)])
        #expect(reasons.map(\.rule) == ["decodeOnMainThread", "notWorthOptimising"])
        #expect(reasons[1].message == "5 phases under 2% of the launch each ('a', 'b', 'c', 'd' and 1 more): not worth optimising")
        #expect(rules([run([("a", .cpu, 0.001), ("b", .cpu, 0.5)])]) == [])
    }

    @Test func noRunsAndZeroTotalsSayNothing() {
        #expect(SlowLaunchDiagnosis.reasons([]).isEmpty)
        #expect(SlowLaunchDiagnosis.reasons([run([])]).isEmpty)
    }

    @Test func aSlowFirstUseSuggestsPreloadUnlessPreloaded() {
        func touched(_ seconds: Double, preloaded: Bool = false) -> RunRecord {
            var r = run([("Init", .cpu, 0.05), ("drawing", .draw, 0.05)], counters: preloaded ? ["first use preloaded": 1] : [:])
            r.phases.append(PhaseRecord(name: "loading conversions", kind: .cpu, start: 0.2, duration: seconds, afterLaunch: true))
            r.deferred = ["loading conversions", "loading constants"]
            return r
        }
        let reasons = SlowLaunchDiagnosis.reasons([touched(0.29), touched(0.31), touched(0.01)])
        #expect(reasons.map(\.rule) == ["slowFirstUse"])
        #expect(
            reasons.first?.message
                == "the first use of 'loading conversions' took 290 ms (over 100 ms): try preload (prepare it on a worker thread under the launch animation)")
        #expect(rules([touched(0.09)]) == [])
        #expect(rules([touched(0.5, preloaded: true)]) == [])
    }
}
