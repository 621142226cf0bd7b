import ArgumentParser
import LaunchRunner

/// `launchprof check`: the CI gate. Exit 1 on a real launch regression or a blown budget.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fail (exit 1) on a statistically real launch regression or a blown budget.",
        discussion: """
            The candidate is --result FILE, or a profile made now with the run options. It is compared with --baseline (a result file or a git revision in the results store) and/or checked against --budget FILE. A phase or the total has regressed when Mann-Whitney U finds the change significant (alpha 0.01) and it is larger than the threshold (5% and 2 ms by default). An improvement never fails the check.

            The baseline must have measured the same target: the built-in app on the same manifest, or the same program (its command line or --name); another is refused (exit 2). Two results made with --metric instructions (run, record or exec) are compared in instructions without --metric.

            --baseline-manifest M runs the baseline manifest and the candidate alternately (A B B A …) in one invocation, so both see the same machine state: use it when the baseline can be launched now (another build's manifest, a strategy switched off), on noisy shared machines.

            With GITHUB_ACTIONS set, regressions become ::error annotations and the markdown table is appended to $GITHUB_STEP_SUMMARY.

            Examples:
              launchprof check --baseline main
              # with the phase-by-phase table
              launchprof check --baseline main --table
              launchprof check --result pr.json --baseline main.json --format markdown
              # a program: exec --metric instructions --output head.json -- ./my-app, on each side
              launchprof check --result head.json --baseline base.json
              launchprof check --budget budgets.json --tier iphone-3gs
              launchprof check --baseline-manifest base.json --manifest pr.json --junit l.xml
            """
    )

    @OptionGroup var options: CheckOptions

    func run() throws {
        try plan().run()
    }

    /// This command's work, its launches made by `executor` (a double in tests).
    func plan(executor: any LaunchExecutor = ProcessExecutor()) -> CheckPlan {
        CheckPlan(options: options, executor: executor)
    }
}
