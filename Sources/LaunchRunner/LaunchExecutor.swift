import LaunchCore

/// What makes one launch: the one place a session's runs become processes. ``ProcessExecutor``
/// spawns the launcher's program; a test double returns scripted runs, so the logic above it (run
/// counts, warm-ups, interleaving, stopping rules, the report chosen) is tested without spawning.
/// Sessions (``LaunchSession``, ``AdaptiveSession``) schedule launches; the executor makes each one.
public protocol LaunchExecutor: Sendable {
    /// Launches `launcher`'s program once; `index` is the measured run's number (0 for a warm-up or
    /// an untimed step such as `--prepare`).
    func launch(_ launcher: ProcessLauncher, index: Int) throws(RunnerError) -> RunRecord
}

/// The real executor: a new process per launch (``ProcessLauncher/launch(index:)``).
public struct ProcessExecutor: LaunchExecutor {
    public init() {}

    public func launch(_ launcher: ProcessLauncher, index: Int) throws(RunnerError) -> RunRecord {
        try launcher.launch(index: index)
    }
}
