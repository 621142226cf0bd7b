/// One quantity's points in commit order (oldest first), all of one kind.
public struct ChangePointSeries: Equatable, Sendable {
    public let key: ChangePointSeries.Key
    public let points: [MeasuredPoint]

    /// Refuses a series that mixes wall times with exact counts or names a commit twice.
    public init(key: ChangePointSeries.Key, points: [MeasuredPoint]) throws(ChangePointError) {
        if let first = points.first, let other = points.first(where: { $0.isExact != first.isExact }) {
            throw .mixedKinds(commit: other.commit)
        }
        var seen = Set<String>()
        for point in points where !seen.insert(point.commit).inserted {
            throw .duplicateCommit(point.commit)
        }
        self.key = key
        self.points = points
    }

    /// `true` when every point holds exact counts whose runs agree: detection is then exact.
    public var isExact: Bool {
        !points.isEmpty && points.allSatisfy(\.isDeterministic)
    }

    /// Each point's value (the median of its runs), oldest first.
    public var values: [Double] { points.map(\.value) }
}

extension ChangePointSeries {
    /// What keeps one series apart from another: its environment, tier, metric, target and phase.
    public struct Key: Hashable, Comparable, Sendable {
        /// The environment fingerprint (host, toolchain) the runs were made in.
        public var environment: String
        /// The device tier (`host` for none).
        public var tier: String
        /// `time` or `instructions`.
        public var metric: String
        /// The manifest or command measured.
        public var target: String
        /// The phase path, or a launch-level quantity (`first frame`, `interactive`, `peak memory`).
        public var phase: String

        public init(environment: String, tier: String, metric: String, target: String, phase: String) {
            self.environment = environment
            self.tier = tier
            self.metric = metric
            self.target = target
            self.phase = phase
        }

        public static func < (a: Key, b: Key) -> Bool {
            (a.environment, a.tier, a.metric, a.target, a.phase) < (b.environment, b.tier, b.metric, b.target, b.phase)
        }
    }
}
