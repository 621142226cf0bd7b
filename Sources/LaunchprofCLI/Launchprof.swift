import ArgumentParser
import LaunchCore

#if canImport(Glibc)
import Glibc
#endif

/// The `launchprof` command: a launch-time profiler.
struct Launchprof: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launchprof",
        abstract: "A launch-time profiler: a clock at main, named phases, and the time each one took.",
        discussion: """
            Examples:
              # profile the built-in default launch
              launchprof run
              launchprof run --manifest Fixtures/heavy/manifest.json --output heavy.json
              # also time a lazy stage's first use
              launchprof run --touch "loading conversions"
              launchprof run --tier iphone-3gs                 # emulate a 2009 phone
              # profile any program: wall, CPU, memory, and its own phases
              launchprof exec --runs 5 -- python3 -c pass
              launchprof report heavy.json --format svg --output heavy.svg
              launchprof record && launchprof diff HEAD~1 HEAD
              # exit 1 on a real regression
              launchprof check --baseline main

            Exit codes: 0 success, 1 regression found, 2 usage or input error.
            """,
        version: launchprofVersion,
        subcommands: [
            RunCommand.self, ExecCommand.self, RecordCommand.self, DiffCommand.self, CheckCommand.self, CompareCommand.self, ReportCommand.self,
            TiersCommand.self, DoctorCommand.self, HistoryCommand.self, BisectCommand.self
        ],
        defaultSubcommand: nil
    )

    /// Parses the arguments and runs the command, mapping every failure to the documented exit codes:
    /// 0 success, 1 regression found, 2 usage or input error.
    static func runMain() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Glibc.exit(0)
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch let error as InputError {
            StandardError.error(error.description)
            Glibc.exit(ExitStatus.inputError)
        } catch let error as any LibraryError {
            StandardError.error(error.description)
            Glibc.exit(ExitStatus.inputError)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version.
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            StandardError.error(fullMessage(for: error))
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == ExecCommand.configuration.commandName, let hint = ExecTerminatorHint.suggestion(for: Array(arguments.dropFirst())) {
                StandardError.write("launchprof: the command goes after --, so that its own options are not read as launchprof's: \(hint)\n")
            }
            Glibc.exit(ExitStatus.inputError)
        }
    }
}
