import Foundation
import LaunchCore
import LaunchRunner

/// The test double of ``LaunchExecutor``: no process is spawned; each launch returns the run its
/// script gives for the launcher, and every launch is logged, so a test can assert how many runs a
/// command made, in which order, which were warm-ups, and what a failure does.
public final class ScriptedExecutor: LaunchExecutor, @unchecked Sendable {
    /// One launch as the executor saw it.
    public struct Launch: Equatable, Sendable {
        /// The launcher's arguments (the built-in app's `--manifest PATH …`, a program's own).
        public var arguments: [String]
        /// The measured run's number; 0 for a warm-up or an untimed step.
        public var index: Int
    }

    private let lock = NSLock()
    private var log: [Launch] = []
    private let script: @Sendable (_ launcher: ProcessLauncher, _ index: Int, _ count: Int) throws(RunnerError) -> RunRecord

    /// `script(launcher, index, count)` gives each launch's run; `count` is how many launches of the
    /// same arguments came before this one (warm-ups included).
    public init(script: @escaping @Sendable (_ launcher: ProcessLauncher, _ index: Int, _ count: Int) throws(RunnerError) -> RunRecord) {
        self.script = script
    }

    /// Every launch with a total of `seconds(launcher)`: one phase, "launching", of the whole total.
    public convenience init(seconds: @escaping @Sendable (ProcessLauncher, Int) -> Double) {
        self.init { launcher, index, count throws(RunnerError) in
            ScriptedExecutor.record(index: index, total: seconds(launcher, count))
        }
    }

    /// The launches made so far, in order.
    public var launches: [Launch] { lock.withLock { log } }

    public func launch(_ launcher: ProcessLauncher, index: Int) throws(RunnerError) -> RunRecord {
        let count = lock.withLock {
            let count = log.filter { $0.arguments == launcher.arguments }.count
            log.append(Launch(arguments: launcher.arguments, index: index))
            return count
        }
        return try script(launcher, index, count)
    }

    /// A run of one phase, "launching", lasting `total` seconds.
    public static func record(index: Int, total: Double) -> RunRecord {
        var record = RunRecord(index: index, total: total, phases: [PhaseRecord(name: "launching", start: 0, duration: total)])
        record.peakResidentBytes = 4 << 20
        return record
    }
}
