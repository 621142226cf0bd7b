import LaunchCore

/// What a result measured: the built-in app on a manifest, or a program (`launchprof exec`), named
/// as the results store names it. `check` compares like with like only.
enum ResultTarget: Equatable {
    /// The built-in app, on the manifest of this name.
    case app(manifest: String)
    /// A program: its profile's name (`--name`, else its command line).
    case program(name: String)

    init(_ result: LaunchResult) {
        self = result.command == nil ? .app(manifest: result.manifest.name) : .program(name: result.manifest.name)
    }

    /// `the built-in app (manifest default)`, `the program './tool --version'`.
    var description: String {
        switch self {
        case .app(let manifest): "the built-in app (manifest \(PlainText.oneLine(manifest)))"
        case .program(let name): "the program '\(PlainText.oneLine(name))'"
        }
    }

    /// Throws the input error (exit 2) when the two results measured different targets
    /// (``CheckProblem/otherTarget(baseline:label:candidate:candidateLabel:command:metric:)``).
    static func requireSame(baseline: LaunchResult, label: String, candidate: ResultTarget, candidateLabel: String) throws {
        let target = ResultTarget(baseline)
        guard target == candidate else {
            throw InputError.check(
                .otherTarget(
                    baseline: target, label: label, candidate: candidate, candidateLabel: candidateLabel, command: baseline.command?.commandLine,
                    metric: baseline.configuration?.metric ?? .time))
        }
    }
}
