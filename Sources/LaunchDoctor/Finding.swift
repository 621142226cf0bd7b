/// One thing `launchprof doctor` found: what it looked at, how it stands, what it saw, and what to do.
public struct Finding: Equatable, Sendable {
    /// How a finding stands.
    public enum Status: String, Sendable, Comparable {
        /// Nothing in the way.
        case ok
        /// Worth knowing; measurements still work (a feature unavailable, a setting not visible).
        case note
        /// Measurements here will be noisier or biased: see ``Finding/advice``.
        case warning
        /// Something launchprof needs does not work here.
        case problem

        private var rank: Int { [.ok: 0, .note: 1, .warning: 2, .problem: 3][self] ?? 0 }
        public static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
    }

    /// A stable name: `load`, `busy-processes`, `cpu-frequency`, `cpu-clock`, `cgroups`, `valgrind`, `perf`,
    /// `page-cache`, `launch-spread`, `detectable-change`.
    public var id: String
    public var status: Status
    /// What was seen, in one sentence.
    public var summary: String
    /// What to do about it (empty when nothing needs doing).
    public var advice: String

    public init(id: String, status: Status, summary: String, advice: String = "") {
        self.id = id
        self.status = status
        self.summary = summary
        self.advice = advice
    }
}
