import LaunchRunner

/// The command line's one error: a failure caused by the user's input. Thrown by a command, it is
/// printed as `launchprof: error: …` with exit code 2 (``Launchprof/runMain()``); thrown
/// while an option's value is read (a value out of its range), ArgumentParser prints it after
/// "The value 'x' is invalid for '--option <n>': ", also with exit code 2.
///
/// A library's typed error (``ResultError``, ``BudgetError``, ``HistoryError``, ``CoreError``…) is
/// carried as it is, so that tests can match its case; what only the command line sees is a case of
/// one of its problem enums (``LaunchRefusal``, ``ProgramProblem``, ``OptionProblem``,
/// ``CheckProblem``, ``HistoryProblem``, ``BisectProblem``), which carry the facts. Each becomes text
/// once, by its own renderer, here (``description``); no message is worded where it is thrown.
enum InputError: Error, CustomStringConvertible {
    /// A library's error, printed by its own renderer.
    case library(any Error)
    /// A library's error about `subject` (a file, a result's label, an option and its value): `subject: error`.
    case about(subject: String, any Error)
    /// What the launch's target or metric cannot do (``LaunchRefusal``).
    case refused(LaunchRefusal)
    /// A program to launch that cannot be (``ProgramProblem``): the command after `--`, `--app`, a helper.
    case program(ProgramProblem)
    /// What `bisect` refuses, or where it stops without an answer (``BisectProblem``).
    case bisect(BisectProblem)
    /// An option's value, or a combination of options, that cannot be used (``OptionProblem``).
    case usage(OptionProblem)
    /// Two sides that cannot be compared (``CheckProblem``).
    case check(CheckProblem)
    /// A program's launch that failed, naming the program (`program`: its name as typed, or `one of the commands`).
    case launch(RunnerError, program: String)
    /// What a `history` command cannot find in the store (``HistoryProblem``).
    case history(HistoryProblem)
    /// `compare`: the loader's error about a strategy's variant of the manifest (`side`, `off` or
    /// `on`, written to `copy`), which names the user's manifest and the switch, not the copy.
    case variant(manifest: String, strategy: String, side: String, copy: String, any Error)
    /// A library's error about the value of `option`, which the error names first (a path): `option error`.
    case value(option: String, any Error)

    var description: String {
        switch self {
        case .library(let error): return "\(error)"
        case .about(let subject, let error): return "\(subject): \(error)"
        case .refused(let refusal): return refusal.description
        case .program(let problem): return problem.description
        case .bisect(let problem): return problem.description
        case .usage(let problem): return problem.description
        case .check(let problem): return problem.description
        case .value(let option, let error): return "\(option) \(error)"
        case .history(let problem): return problem.description
        case .launch(let error, let program): return error.message(subject: program)
        case .variant(let manifest, let strategy, let side, let copy, let error):
            return "\(manifest) with \(strategy) \(side): \(error)".replacingOccurrences(of: copy, with: "the \(side) copy")
        }
    }
}
