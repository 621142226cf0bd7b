import Foundation
import LaunchprofTestSupport
import LaunchCore
import LaunchExport
import LaunchResults
import Testing

/// `history detect` and `history trend` end to end, on a results directory of a real git history.
struct HistoryDetectCLITests {
    /// A repository of `commits` empty commits, each with a stored result: a phase `decode` that
    /// steps from 1 ms to 1.2 ms at commit `step`, and a flat `layout`. Returns the directory and
    /// the commits, oldest first. `drift` makes `decode` rise by that fraction at every commit.
    static func history(commits: Int, step: Int, drift: Double = 0) throws -> (String, [String]) {
        let repository = TemporaryDirectory.uniquePath("history")
        try FileManager.default.createDirectory(atPath: repository + "/.launchprof/results", withIntermediateDirectories: true)
        func git(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: repository)
            let data = try OutputFiles.run(process).stdout
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try git(["init", "-q"])
        var hashes: [String] = []
        for commit in 0..<commits {
            _ = try git(["commit", "-q", "--allow-empty", "-m", "c\(commit)"])
            let hash = try git(["rev-parse", "HEAD"])
            hashes.append(hash)
            let decode = (commit < step ? 0.001 : 0.0012) * (1 + drift * Double(commit))
            let runs = (0..<5).map { run -> RunRecord in
                let wobble = 1 + Double((commit * 7 + run * 3) % 11 - 5) * 0.001
                let phases = [
                    PhaseRecord(name: "decode", start: 0, duration: decode * wobble),
                    PhaseRecord(name: "layout", start: decode, duration: 0.002 * wobble)
                ]
                return RunRecord(index: run + 1, total: decode * wobble + 0.002 * wobble, phases: phases)
            }
            let host = HostInfo(cpuModel: "cpu", cores: 2, os: "Linux", architecture: "x86_64", swiftVersion: "6.3", hostname: "ci-\(commit)")
            let result = LaunchResult(
                date: "2026-11-25T10:\(10 + commit / 60):\(10 + commit % 60)Z", manifest: ManifestInfo(name: "default", path: "m", sha256: ""), host: host,
                git: GitInfo(commit: hash, branch: "main", dirty: false), runs: runs)
            try ResultFile.write(result, to: repository + "/.launchprof/results/\(hash).json")
        }
        return (repository, hashes)
    }

    @Test func detectFindsTheStepAtItsCommitInEveryFormat() throws {
        let (repository, hashes) = try Self.history(commits: 24, step: 14)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        let text = try CLI.run(["history", "detect"], in: repository)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        // The series: decode, layout and the launch total (the total steps too: 3 ms to 3.2 ms).
        #expect(lines.first == "2 change points in 2 of 3 series")
        #expect(lines.contains { $0.contains("decode") && $0.contains(String(hashes[14].prefix(12))) && $0.contains("+20.0%") })
        #expect(!lines.contains { $0.contains("layout") })
        let json = try CLI.run(["history", "detect", "--format", "json"], in: repository)
        #expect(json.status == 0 && json.stdout.contains("\"commit\" : \"\(hashes[14])\"") && json.stdout.contains("\"previousCommit\" : \"\(hashes[13])\""))
        let markdown = try CLI.run(["history", "detect", "--format", "markdown"], in: repository)
        #expect(markdown.status == 0 && markdown.stdout.hasPrefix("### 2 change points"))
        // Since a commit after the step: none; since one before it: the step.
        #expect(try CLI.run(["history", "detect", "--since", hashes[16]], in: repository).stdout.hasPrefix("no change points after"))
        #expect(try CLI.run(["history", "detect", "--since", hashes[10]], in: repository).stdout.hasPrefix("2 change points after"))
        // The same history twice: the same bytes.
        #expect(try CLI.run(["history", "detect", "--format", "json"], in: repository).stdout == json.stdout)
    }

    @Test func checkWithTheStoreNamesAPhaseThatHasBeenDrifting() throws {
        // decode rises 0.4% a commit, no step; layout stays flat.
        let (repository, hashes) = try Self.history(commits: 40, step: 40, drift: 0.004)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        let newest = ".launchprof/results/\(hashes[39]).json"
        let check = try CLI.run(["check", "--result", newest, "--baseline", newest, "--store", ".launchprof/results"], in: repository)
        #expect(check.status == 0, "\(check.stderr)")
        let drifts = check.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof: drift: ") }
        #expect(
            drifts.contains { $0.contains("'decode' has been drifting: +") && $0.contains("over the last 30 commits of the history, no single step") },
            "\(check.stderr)")
        #expect(!drifts.contains { $0.contains("'layout'") }, "\(check.stderr)")
        // Without --store, or a history with a step instead, nothing is said of drift.
        let plain = try CLI.run(["check", "--result", newest, "--baseline", newest], in: repository)
        #expect(plain.status == 0 && !plain.stderr.contains("drift"), "\(plain.stderr)")
        let (stepped, steppedHashes) = try Self.history(commits: 40, step: 30)
        defer { try? FileManager.default.removeItem(atPath: stepped) }
        let steppedNewest = ".launchprof/results/\(steppedHashes[39]).json"
        let step = try CLI.run(["check", "--result", steppedNewest, "--baseline", steppedNewest, "--store", ".launchprof/results"], in: stepped)
        #expect(step.status == 0 && !step.stderr.contains("drifting"), "\(step.stderr)")
    }

    @Test func trendDrawsThePhaseAndMarksTheStep() throws {
        let (repository, hashes) = try Self.history(commits: 24, step: 14)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        let trend = try CLI.run(["history", "trend", "decode", "--last", "12"], in: repository)
        #expect(trend.status == 0, "\(trend.stderr)")
        let lines = trend.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("decode · default · tier host · time") == true)
        #expect(lines[1].contains("24 commits"))
        #expect(lines.contains { $0.contains(String(hashes[14].prefix(12))) && $0.contains("step +20.0%") })
        #expect(lines.count == 3 + 12)
        let missing = try CLI.run(["history", "trend", "nope"], in: repository)
        #expect(missing.status == 2 && missing.stderr.contains("no series for phase 'nope'") && missing.stderr.contains("decode"))
    }

    @Test func badInputIsAUsageError() throws {
        let (repository, _) = try Self.history(commits: 3, step: 1)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        for arguments in [
            ["--max-p", "0.9"], ["--min-segment", "1"], ["--min-step", "nan"], ["--since", "no-such-revision"], ["--store", "/nonexistent"], ["--format", "svg"]
        ] {
            let outcome = try CLI.run(["history", "detect"] + arguments, in: repository)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stdout.isEmpty && !outcome.stderr.isEmpty, "\(arguments)")
        }
    }
}
