import LaunchCore

/// The launching half of `check --runs auto`: two sessions run in interleaved pairs (A B, then B A,
/// …, after the warm-ups in the same alternation), one pair at a time, until the caller's stopping
/// rule says stop or the budget runs out: `maxPairs` pairs, or `maxSeconds` since the session began
/// (warm-ups included; the pair in flight is finished). The rule itself, `SequentialGate` in
/// LaunchStats, looks at the runs after each pair.
public struct AdaptiveSession: Sendable {
    /// The baseline side; its `runs` is ignored, its `warmup` and `coldFiles` apply.
    public var a: LaunchSession
    /// The candidate side; its `runs` is ignored, its `warmup` and `coldFiles` apply.
    public var b: LaunchSession
    /// At most this many pairs (runs a side), at least 1.
    public var maxPairs: Int
    /// Start no new pair after this many seconds of the session.
    public var maxSeconds: Double

    public init(a: LaunchSession, b: LaunchSession, maxPairs: Int, maxSeconds: Double) {
        self.a = a
        self.b = b
        self.maxPairs = maxPairs
        self.maxSeconds = maxSeconds
    }

    /// What the stopping rule sees after each pair.
    public struct Look {
        /// The measured runs of each side so far, in order; both hold `pairs` runs.
        public var a: [RunRecord]
        public var b: [RunRecord]
        public var pairs: Int { a.count }
        /// The budget is spent: this is the last look, whatever the rule says.
        public var isLast: Bool
    }

    /// Why the session ended.
    public enum Stop: String, Sendable, Equatable {
        /// The rule said stop.
        case decided
        /// `maxPairs` pairs were made.
        case maxPairs
        /// `maxSeconds` passed.
        case maxTime
    }

    /// Runs the warm-ups, then pairs until `look` returns `true` or the budget is spent (the last
    /// call has `isLast` set). The first failed launch ends the session with its failure.
    public func run(
        progress: @escaping @Sendable (LaunchSession.Event) -> Void = { _ in },
        look: (Look) -> Bool
    ) throws(RunnerError) -> (a: [RunRecord], b: [RunRecord], stop: Stop) {
        var launcherA = a.launcher, launcherB = b.launcher
        launcherA.onProgress = { progress(.stage($0)) }
        launcherB.onProgress = { progress(.stage($0)) }
        let warmup = max(a.warmup, b.warmup), pairs = max(maxPairs, 1)
        // The display's total is the most the session can make; it usually stops sooner.
        let total = 2 * (warmup + pairs)
        var number = 0
        let start = MonotonicClock.nanoseconds()
        var runsA: [RunRecord] = [], runsB: [RunRecord] = []

        func launch(_ isA: Bool, warmingUp: Bool) throws(RunnerError) {
            let session = isA ? a : b
            number += 1
            progress(.starting(number: number, total: total, warmup: warmingUp))
            let began = MonotonicClock.nanoseconds()
            let index = warmingUp ? 0 : (isA ? runsA.count : runsB.count) + 1
            let record = try session.launchOnce(isA ? launcherA : launcherB, index: index)
            progress(.finished(number: number, seconds: LaunchClock.seconds(MonotonicClock.nanoseconds() - began)))
            if !warmingUp { if isA { runsA.append(record) } else { runsB.append(record) } }
        }

        for round in 0..<warmup {
            try launch(round % 2 == 0, warmingUp: true)
            try launch(round % 2 != 0, warmingUp: true)
        }
        while true {
            // A B, then B A: each side goes first half the time.
            let aFirst = runsA.count % 2 == 0
            try launch(aFirst, warmingUp: false)
            try launch(!aFirst, warmingUp: false)
            let elapsed = LaunchClock.seconds(MonotonicClock.nanoseconds() - start)
            let stop: Stop? = runsA.count >= pairs ? .maxPairs : (elapsed >= maxSeconds ? .maxTime : nil)
            if look(Look(a: runsA, b: runsB, isLast: stop != nil)) { return (runsA, runsB, .decided) }
            if let stop { return (runsA, runsB, stop) }
        }
    }
}
