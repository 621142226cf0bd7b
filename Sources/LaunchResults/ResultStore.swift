import LaunchCore

/// The results store inside a repository, `.launchprof/results/`: one result file per commit
/// (and tier and manifest when they are not the defaults), so two commits can be compared by name.
///
/// File names: `<commit>[-<tier>][-<manifest>][-instructions][-dirty].json`, e.g. `3f2a…9c.json` for
/// the default manifest timed on the host, `3f2a…9c-iphone-3gs-heavy.json` otherwise, and
/// `3f2a…9c-instructions.json` for instruction counts (`record --metric instructions`).
public struct ResultStore: Sendable {
    public static let defaultDirectory = ".launchprof/results"

    public var directory: String

    public init(directory: String = ResultStore.defaultDirectory) {
        self.directory = directory
    }

    /// The file name a result is stored under.
    public static func fileName(commit: String, tier: String?, manifest: String, metric: Metric = .time, dirty: Bool) -> String {
        var name = commit
        if let tier, tier != "host" { name += "-\(sanitize(tier))" }
        if manifest != "default" { name += "-\(sanitize(manifest))" }
        if metric == .instructions { name += "-instructions" }
        if dirty { name += "-dirty" }
        return name + ".json"
    }

    /// Stores `result` (atomically) and returns its path; the result must carry its git commit.
    @discardableResult
    public func save(_ result: LaunchResult) throws(ResultError) -> String {
        guard let git = result.git else { throw .noGitCommit(directory: directory) }
        let path =
            "\(directory)/"
            + Self.fileName(
                commit: git.commit, tier: result.configuration?.tier?.name,
                manifest: result.manifest.name, metric: result.configuration?.metric ?? .time,
                dirty: git.dirty)
        try ResultFile.write(result, to: path)
        return path
    }

    /// A result file path for `reference`: an existing file as it is, else a git revision resolved
    /// with `resolveRevision` to a commit, looked up in the store for `tier` and `manifest`
    /// (a clean result first, else one recorded with uncommitted changes).
    public func locate(
        _ reference: String, tier: String?, manifest: String, metric: Metric = .time,
        resolveRevision: (String) -> String?
    ) throws(ResultError) -> String {
        if FileIO.exists(reference), !FileIO.isDirectory(reference) { return reference }
        guard let commit = resolveRevision(reference) else {
            throw .notFileOrRevision(reference: reference)
        }
        for dirty in [false, true] {
            let path = "\(directory)/" + Self.fileName(commit: commit, tier: tier, manifest: manifest, metric: metric, dirty: dirty)
            if FileIO.exists(path) { return path }
        }
        let expected = Self.fileName(commit: commit, tier: tier, manifest: manifest, metric: metric, dirty: false)
        throw .notStored(
            reference: reference, commit: commit, searched: ": expected \(directory)/\(expected)",
            advice: missingAdvice(reference, commit: commit, metric: metric))
    }

    /// What to do about a missing result: the options that find the commit's stored results when
    /// there are some (another manifest, program or tier), else how to record one, for the kind of
    /// target the store holds (the built-in app, a program, or either when it is empty).
    func missingAdvice(_ reference: String, commit: String, metric: Metric) -> String {
        Self.missingAdvice(
            reference, metric: metric, atCommit: storedHeaders { $0.hasPrefix(commit) },
            program: storedHeaders { _ in true }.first { $0.command != nil })
    }

    /// ``missingAdvice(_:commit:metric:)`` for any store: `atCommit`, the headers of the results
    /// stored at the commit; `program`, one stored result of a program, when there is one.
    public static func missingAdvice(_ reference: String, metric: Metric, atCommit stored: [LaunchResult], program: LaunchResult?) -> String {
        if !stored.isEmpty {
            let options = stored.map { header in
                var words = ["--for-manifest", CommandInfo.shellQuoted(header.manifest.name)]
                if let tier = header.configuration?.tier?.name, tier != "host" { words += ["--for-tier", CommandInfo.shellQuoted(tier)] }
                if header.configuration?.metric == .instructions { words += ["--metric", "instructions"] }
                return "`" + words.joined(separator: " ") + "`" + (header.command.map { " (exec -- \($0.commandLine))" } ?? " (the built-in app)")
            }
            return "this commit's stored results are for another target: pass \(options.joined(separator: ", or "))"
        }
        let instructions = metric == .instructions ? " --metric instructions" : ""
        let checkout = "git checkout \(CommandInfo.shellQuoted(reference)) && "
        let command = program?.command?.commandLine
        let name = program.map(\.manifest.name).flatMap { $0 == command ? nil : " --name \(CommandInfo.shellQuoted($0))" } ?? ""
        let exec = "`\(checkout)launchprof exec --record\(instructions)\(name) -- \(command ?? "COMMAND")`"
        if program != nil { return "record one with \(exec)" }
        return "record one with `\(checkout)launchprof record\(instructions)` (the built-in app) or \(exec) (a program)"
    }

    /// The headers of up to 8 results in the store whose file names pass `include`, in name order.
    private func storedHeaders(_ include: (String) -> Bool) -> [LaunchResult] {
        let names = FileIO.entries(of: directory).filter { $0.hasSuffix(".json") && include($0) }.sorted().prefix(8)
        return names.compactMap { try? ResultTableReader.read("\(directory)/\($0)").header }
    }

    static func sanitize(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }
}
