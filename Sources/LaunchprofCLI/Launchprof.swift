import ArgumentParser
import Foundation
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
            printError(error.description)
            Glibc.exit(ExitStatus.inputError)
        } catch let error as any LibraryError {
            printError(error.description)
            Glibc.exit(ExitStatus.inputError)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version.
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            printError(fullMessage(for: error), usage: true)
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == ExecCommand.configuration.commandName, let hint = ExecTerminatorHint.suggestion(for: Array(arguments.dropFirst())) {
                StandardError.write("launchprof: the command goes after --, so that its own options are not read as launchprof's: \(hint)\n")
            }
            Glibc.exit(ExitStatus.inputError)
        }
    }

    static func printError(_ message: String, usage: Bool = false) {
        // ArgumentParser's own `Error: …` (a bad option, a failed validate()) is worded as every
        // other error of launchprof's, so that one prefix finds them all.
        var text =
            message.hasPrefix("Error: ")
            ? "launchprof: error: " + message.dropFirst("Error: ".count)
            : message.hasPrefix("Usage:") ? message : "launchprof: error: \(message)"
        if !text.hasSuffix("\n") { text += "\n" }
        StandardError.write(text)
    }
}

extension Launchprof {
    /// `message` with each command-line argument that holds a control character (a newline in a
    /// `--tap` key, an escape sequence in a path) shown as ``PlainText/oneLine(_:)`` does: messages
    /// that echo an argument (ArgumentParser's `The value '…' is invalid`, a path at the start of a
    /// message) then cannot start a forged line of their own.
    static func escapingArguments(_ message: String, arguments: [String] = CommandLine.arguments) -> String {
        var safe = message
        // Longest first: an argument that contains a shorter one is replaced whole.
        for argument in Set(arguments).sorted(by: { $0.utf8.count > $1.utf8.count })
        where argument.unicodeScalars.contains(where: { PlainText.visibleControl($0) != nil }) {
            safe = safe.replacingOccurrences(of: argument, with: PlainText.oneLine(argument))
        }
        return safe
    }
}

/// The documented exit codes.
enum ExitStatus {
    static let success: Int32 = 0
    /// A launch regression or blown budget was found.
    static let regression: Int32 = 1
    /// Bad usage or bad input (a missing, unreadable or malformed file).
    static let inputError: Int32 = 2
}
