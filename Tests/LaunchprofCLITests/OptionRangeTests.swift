import Foundation
import Testing
import LaunchCore

/// Every numeric option of every command has a documented range (docs/limits.md), checked before any
/// arithmetic: huge, negative, NaN, infinite and non-numeric values are usage errors (exit 2) whose
/// message names the option and its range. None of these launches anything.
@Suite struct OptionRangeTests {
    /// Values no numeric option accepts.
    static let hostile = ["99999999999999999999", "1e300", "-1", "-99999999999999999999", "nan", "inf", "-inf", "abc", ""]

    /// (command line before the option, option, what the message must say)
    static let options: [([String], String, String)] = [
        (["run"], "--runs", "--runs must be from 1 to 10000, or auto"),
        (["record"], "--runs", "--runs must be from 1 to 10000, or auto"),
        (["check", "--baseline", "x.json"], "--runs", "--runs must be from 1 to 10000, or auto"),
        (["run"], "--warmup", "--warmup must be from 0 to 1000"),
        (["record"], "--warmup", "--warmup must be from 0 to 1000"),
        (["check", "--baseline", "x.json"], "--warmup", "--warmup must be from 0 to 1000"),
        (["run"], "--timeout", "--timeout must be from 0.001 to 86400 seconds"),
        (["check", "--baseline", "x.json"], "--timeout", "--timeout must be from 0.001 to 86400 seconds"),
        (["run"], "--precision", "--precision must be from 0 to 9"),
        (["record"], "--precision", "--precision must be from 0 to 9"),
        (["check", "--baseline", "x.json"], "--precision", "--precision must be from 0 to 9"),
        (["diff", "a.json", "b.json"], "--precision", "--precision must be from 0 to 9"),
        (["report", "x.json"], "--precision", "--precision must be from 0 to 9"),
        (["report", "x.json"], "--run", "--run must be from 1 to 1000000"),
        (["check", "--baseline", "x.json"], "--max-runs", "--max-runs must be from 10 to 10000"),
        (["check", "--baseline", "x.json"], "--max-time", "--max-time must be from 1 to 86400 seconds"),
        (["check", "--baseline", "x.json"], "--min-change", "--min-change must be from 0 to 3600 seconds"),
        (["diff", "a.json", "b.json"], "--min-change", "--min-change must be from 0 to 3600 seconds"),
        (["check", "--baseline", "x.json"], "--alpha", "--alpha must be from 0.0001 to 0.5"),
        (["diff", "a.json", "b.json"], "--alpha", "--alpha must be from 0.0001 to 0.5")
    ]

    @Test(arguments: options)
    func hostileValuesAreUsageErrorsNamingTheRange(_ command: [String], _ option: String, _ requirement: String) throws {
        for value in Self.hostile {
            let outcome = try CLI.run(command + [option, value])
            #expect(outcome.status == 2, "\(command) \(option) '\(value)': \(outcome.stderr)")
            #expect(outcome.stderr.contains(requirement), "\(command) \(option) '\(value)': \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
        // `--option=value` is the same check.
        let joined = try CLI.run(command + ["\(option)=99999999999999999999"])
        #expect(joined.status == 2 && joined.stderr.contains(requirement), "\(joined.stderr)")
    }

    @Test func justOutsideEachRangeIsRefusedToo() throws {
        for (command, option, value, requirement) in [
            (["run"], "--runs", "10001", "--runs must be from 1 to 10000"), (["run"], "--runs", "0", "--runs must be from 1 to 10000"),
            (["run"], "--warmup", "1001", "--warmup must be from 0 to 1000"),
            (["run"], "--timeout", "86400.5", "--timeout must be from 0.001 to 86400"), (["run"], "--timeout", "0", "--timeout must be from 0.001"),
            (["run"], "--precision", "10", "--precision must be from 0 to 9"), (["run"], "--runs", "2.5", "--runs must be from 1 to 10000"),
            (["run"], "--warmup", "1e3", "--warmup must be from 0 to 1000"),
            (["check", "--baseline", "x.json"], "--max-runs", "9", "--max-runs must be from 10 to 10000"),
            (["check", "--baseline", "x.json"], "--max-runs", "10001", "--max-runs must be from 10 to 10000"),
            (["check", "--baseline", "x.json"], "--max-time", "0.5", "--max-time must be from 1 to 86400"),
            (["check", "--baseline", "x.json"], "--alpha", "0", "--alpha must be from 0.0001 to 0.5"),
            (["check", "--baseline", "x.json"], "--alpha", "0.6", "--alpha must be from 0.0001 to 0.5"),
            (["report", "x.json"], "--run", "0", "--run must be from 1 to 1000000")
        ] {
            let outcome = try CLI.run(command + [option, value])
            #expect(outcome.status == 2, "\(option) \(value)")
            #expect(outcome.stderr.contains(requirement), "\(option) \(value): \(outcome.stderr)")
        }
    }

    @Test(arguments: [["check", "--baseline", "x.json"], ["diff", "a.json", "b.json"]])
    func thresholdsAreCheckedInEverySpelling(_ command: [String]) throws {
        for value in ["99999999999999999999", "1e300", "-1", "-0.5%", "nan", "inf", "1001", "time=nan", "instructions=-1%", "time=inf%"] {
            let outcome = try CLI.run(command + ["--threshold", value])
            #expect(outcome.status == 2, "--threshold \(value)")
            #expect(outcome.stderr.contains("--threshold must be from 0 to 1000 percent, not '\(value)'"), "\(value): \(outcome.stderr)")
        }
        for value in ["abc", "", "%", "5%%", "memory=5%", "time=", "=5", "time=abc"] {
            let outcome = try CLI.run(command + ["--threshold", value])
            #expect(outcome.status == 2, "--threshold \(value)")
            #expect(
                outcome.stderr.contains("--threshold takes PERCENT, time=PERCENT or instructions=PERCENT (a percentage from 0 to 1000"),
                "\(value): \(outcome.stderr)")
        }
        let twice = try CLI.run(command + ["--threshold", "time=5%", "--threshold", "time=3"])
        #expect(twice.status == 2 && twice.stderr.contains("--threshold time= is given twice"), "\(twice.stderr)")
        for value in ["drawing=99999999999999999999", "drawing=-1", "drawing=nan", "drawing=inf", "drawing=1001%"] {
            let outcome = try CLI.run(command + ["--phase-threshold", value])
            #expect(outcome.status == 2, "--phase-threshold \(value)")
            #expect(outcome.stderr.contains("--phase-threshold must be from 0 to 1000 percent, not '\(value)'"), "\(value): \(outcome.stderr)")
        }
        for value in ["drawing", "=5", "drawing=abc"] {
            let outcome = try CLI.run(command + ["--phase-threshold", value])
            #expect(
                outcome.status == 2 && outcome.stderr.contains("--phase-threshold takes NAME=PERCENT (a percentage from 0 to 1000)"),
                "\(value): \(outcome.stderr)")
        }
    }

    @Test func runsAutoIsForCheckOnly() throws {
        for command in ["run", "record"] {
            let outcome = try CLI.run([command, "--runs", "auto"])
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("--runs auto chooses how many runs a comparison needs: use it with check"), "\(outcome.stderr)")
        }
    }

    @Test func theHelpStatesEachRange() throws {
        let check = try CLI.run(["check", "--help"])
        #expect(check.status == 0)
        let help = check.stdout.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        for text in [
            "1 to 10000, or auto", "0 to 1000.", "0.001 to 86400", "10 to 10000 (default 200)", "1 to 86400 (default 120)",
            "0 to 3600", "0.0001 to 0.5", "time=5%, instructions=1% (repeatable)", "0 to 9"
        ] {
            #expect(help.contains(text), "check --help lacks '\(text)'")
        }
        let report = try CLI.run(["report", "--help"])
        #expect(report.stdout.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).contains("1 to 1000000"))
    }
}

/// The `--threshold` grammar, end to end through `diff --format json` (each row carries its
/// threshold in seconds): `5`, `5%`, `time=5%`, `instructions=1%`, repeatable.
@Suite(.serialized) struct ThresholdGrammarTests {
    static let result: Result<String, Error> = Result {
        let path = CLI.temporaryPath("threshold-result.json")
        let outcome = try CLI.run(["run", "--manifest", try TestManifest.make(), "--runs", "3", "--warmup", "0", "--quiet", "--output", path])
        guard outcome.status == 0 else { throw InputFailure(outcome.stderr) }
        return path
    }
    struct InputFailure: Error { let message: String; init(_ m: String) { message = m } }

    /// The total row's threshold as a share of its baseline median, in percent.
    func totalThresholdPercent(_ thresholds: [String]) throws -> Double {
        let path = try Self.result.get()
        let outcome = try CLI.run(["diff", path, path, "--format", "json", "--min-change", "0"] + thresholds.flatMap { ["--threshold", $0] })
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let total = try #require(json["total"] as? [String: Any])
        let threshold = try #require(total["threshold"] as? Double), median = try #require(total["baselineMedian"] as? Double)
        return (threshold / median * 100 * 1000).rounded() / 1000
    }

    @Test func eachSpellingSetsTheTimeThreshold() throws {
        #expect(try totalThresholdPercent([]) == 5, "time keeps its default 5%")
        #expect(try totalThresholdPercent(["7"]) == 7)
        #expect(try totalThresholdPercent(["7.5%"]) == 7.5)
        #expect(try totalThresholdPercent(["time=12%"]) == 12)
        #expect(try totalThresholdPercent(["instructions=1%"]) == 5, "an instructions threshold leaves time at 5%")
        #expect(try totalThresholdPercent(["time=12%", "20"]) == 12, "a named threshold wins over a bare one, in any order")
        #expect(try totalThresholdPercent(["20", "time=12"]) == 12)
        #expect(try totalThresholdPercent(["instructions=2%", "20"]) == 20, "a bare value applies to time when time is unnamed")
    }
}
