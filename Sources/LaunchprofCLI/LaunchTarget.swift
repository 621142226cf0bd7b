import LaunchRunner

/// What a launch request launches: the built-in app on a manifest (`run`, `record`, `check`,
/// `compare`), or any program (`exec`). Every plan has one; what differs by target (the app's
/// arguments and emulation, a program's spawner, readiness and throttle) is settled when the plan
/// is made, and what the runner does with a plan is the same for both.
enum LaunchTarget {
    /// `launchprof-app` on the manifest of this name (loaded and checked), read from `path`.
    case builtInApp(manifest: String, path: String)
    /// A program: the command resolved (on `PATH`, or `/bin/sh -c` with `--shell`), and the name its
    /// results go by (`--name`, else the command line).
    case program(ProgramCommand, name: String)

    /// What results of this target measured, for `check` to compare like with like.
    var resultTarget: ResultTarget {
        switch self {
        case .builtInApp(let manifest, _): .app(manifest: manifest)
        case .program(_, let name): .program(name: name)
        }
    }

    /// A launch's failure as the user reads it: a program's names it (or "one of the commands" when
    /// two were interleaved); the built-in app's says what the app did.
    func failure(_ error: RunnerError, pair: Bool) -> InputError {
        switch self {
        case .builtInApp: .library(error)
        case .program(let command, _): .launch(error, program: pair ? "one of the commands" : command.displayName)
        }
    }
}
