import ArgumentParser
import LaunchCore
import LaunchExport

/// `launchprof record`: profiles like `run` and stores the result in the repository's results store.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Profile like `run` and store the result under .launchprof/results/, named by commit.",
        discussion: """
            The file is named by the current commit (and the tier and manifest when they are not the defaults, and "-dirty" with uncommitted changes), so `diff` and `check` can name it by a git revision. Commit, branch, dirty flag, date and host are inside. Writing is atomic.

            Examples:
              launchprof record                              # on main, after each merge
              launchprof record --tier iphone-3gs
              launchprof diff HEAD~1 HEAD
            """
    )

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var measure: MetricOptions
    @OptionGroup var report: ReportOutputOptions

    @Option(name: .long, help: ArgumentHelp("The results store.", valueName: "directory"))
    var store: String = ResultStore.defaultDirectory

    func validate() throws {
        try profile.requireOneTier()
        try profile.requireTierForTiersFile()
        if profile.runs == .auto {
            throw ValidationError("--runs auto chooses how many runs a comparison needs: use it with check, and give this command a number")
        }
        try OutputPath.checkDirectory(store, option: "--store")
    }

    func run() throws {
        try ResultMetadata.requireCommit(for: "record")
        let profile = try Profile(options: self.profile, metric: measure.metric)
        let result = try profile.run()
        let path: String
        do { path = try ResultStore(directory: store).save(result) } catch { throw InputError(error) }
        try report.emit(result, profile: profile)
        if !self.profile.quiet { StandardError.write("launchprof: recorded \(path)\n") }
    }
}
