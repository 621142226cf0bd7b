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

    /// Why the baseline (`label`) cannot be compared with the candidate, or `nil` when both measured
    /// the same target: another program, the app against a program, or another manifest.
    /// `command` is the baseline program's command line, when it is one, for the hint.
    static func mismatch(
        baseline a: ResultTarget, label: String, candidate b: ResultTarget, candidateLabel: String, command: String? = nil, metric: Metric = .time
    )
        -> String?
    {
        guard a != b else { return nil }
        let hint: String
        switch (a, b) {
        case (.program, .app):
            let option = metric == .instructions ? " --metric instructions" : ""
            hint =
                "check profiles the built-in app unless --result gives the candidate: make the program's result with `launchprof exec\(option) --output head.json -- \(command ?? "COMMAND")` and pass --result head.json"
        case (.app, .program):
            hint = "a program's result is compared with a program's baseline: record one with `launchprof exec --record -- COMMAND`"
        case (.program, .program):
            hint = "give the same command (or the same --name) on both sides, and --for-command NAME to find a stored baseline by it"
        case (.app, .app):
            hint = "pick the baseline of the same manifest with --for-manifest NAME, or compare two manifests now with --baseline-manifest"
        }
        return "\(label) measured \(a.description), but \(candidateLabel) is \(b.description): the comparison would mean nothing (\(hint))"
    }

    /// Throws the input error (exit 2) when the two results measured different targets.
    static func requireSame(baseline: LaunchResult, label: String, candidate: ResultTarget, candidateLabel: String) throws {
        if let reason = mismatch(
            baseline: ResultTarget(baseline), label: label, candidate: candidate, candidateLabel: candidateLabel,
            command: baseline.command?.commandLine, metric: baseline.configuration?.metric ?? .time)
        {
            throw InputError(reason)
        }
    }
}
