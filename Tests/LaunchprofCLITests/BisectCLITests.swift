import Foundation
import LaunchCore
import Testing

/// A temporary git repository of a small C program over `count` commits after the first (the good
/// one): from commit `culprit` on, the program loops longer (an instruction increase); commits in
/// `broken` do not compile.
struct BisectRepository {
    let path: String
    let temporary: String
    /// Every commit, the first (good) one at 0, the last (bad) one at `count`.
    let commits: [String]

    /// `script`: a shell script `prog.sh` instead, which sleeps 0.2 s from `culprit` on (for time).
    /// `program`: the C program of each commit instead (built with ``phaseBuild``).
    init(count: Int, culprit: Int?, broken: Set<Int> = [], script isScript: Bool = false, program: ((Int) -> String)? = nil) throws {
        path = CLI.temporaryPath("bisect-repo")
        temporary = CLI.temporaryPath("bisect-tmp")
        try FileIO.createDirectories(path)
        try FileIO.createDirectories(temporary)
        var script = """
            set -e
            cd "$1"
            git init -q
            git config user.email bisect@example.com
            git config user.name Bisect
            git config commit.gpgsign false
            printf 'prog\\n' > .gitignore

            """
        for i in 0...count {
            let loops = culprit.map { i >= $0 } == true ? 5000 : 1000
            let body =
                program?(i)
                ?? (broken.contains(i)
                    ? "#error broken at \(i)"
                    : "static volatile unsigned long sink;\nint main(void) { for (unsigned long i = 0; i < \(loops); i++) sink += i; return 0; }")
            if isScript {
                let slow = culprit.map { i >= $0 } == true ? "sleep 0.2" : ":"
                script += "printf '#!/bin/sh\\n%s\\n' '\(slow)' > prog.sh\nchmod +x prog.sh\n"
            } else {
                script += "printf '%s\\n' '\(body)' > prog.c\n"
            }
            script += "echo 'commit \(i)' > notes.txt\ngit add -A\ngit commit -q -m 'commit \(i)'\n"
        }
        script += "git rev-list --reverse HEAD\n"
        let made = try CLI.run(["-c", script, "sh", path], in: path, program: "/bin/sh")
        guard made.status == 0 else { throw InputFailure("making the repository failed: \(made.stderr)") }
        commits = made.stdout.split(separator: "\n").map(String.init)
    }

    func remove() {
        FileIO.removeTree(path)
        FileIO.removeTree(temporary)
    }

    /// `launchprof bisect` in the repository, with a `TMPDIR` of its own and its store there.
    func bisect(_ arguments: [String]) throws -> CLI.Outcome {
        try CLI.run(["bisect"] + arguments, in: path, environment: ["TMPDIR": temporary, "LAUNCHPROF_STORE": store])
    }

    var store: String { temporary + "-history.sqlite" }

    static let build = ["--build", "cc -O0 -o prog prog.c"]

    /// The build of a program that reports its phases through include/launchprof.h.
    static let phaseBuild = ["--build", "cc -O0 -I'\(CLI.packageRoot)/include' -o prog prog.c"]

    /// A C program with two phases, `reading` and `computing`, looping `reading` and `computing` times.
    static func phases(reading: Int, computing: Int) -> String {
        """
        #define LAUNCHPROF_IMPLEMENTATION
        #include "launchprof.h"
        static volatile unsigned long sink;
        static void work(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
        int main(void) {
            lp_begin("reading"); work(\(reading)); lp_end("reading");
            lp_begin("computing"); work(\(computing)); lp_end("computing");
            lp_done();
            return 0;
        }
        """
    }

    /// The work trees git still knows besides the repository's own.
    var extraWorktrees: [String] {
        let listed = (try? CLI.run(["-C", path, "worktree", "list", "--porcelain"], program: "/usr/bin/git").stdout) ?? ""
        return listed.split(separator: "\n").filter { $0.hasPrefix("worktree ") && $0 != "worktree \(path)" }.map(String.init)
    }
}

struct InputFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The smallest number of bits that tell `outcomes` apart.
private func log2Ceiling(_ outcomes: Int) -> Int {
    var bits = 0
    while (1 << bits) < outcomes { bits += 1 }
    return bits
}

@Suite(.enabled(if: ExecutableSearchForTests.has("valgrind") && ExecutableSearchForTests.has("cc"), "needs valgrind and cc"))
struct BisectCLITests {
    @Test func aPlantedInstructionIncreaseIsFoundWithinTheBoundAndStored() throws {
        // 16 commits after the good one; the build fails at the first midpoint (8), which is skipped.
        let repository = try BisectRepository(count: 16, culprit: 11, broken: [8])
        defer { repository.remove() }
        let outcome = try repository.bisect(["--good", repository.commits[0], "--bad", "HEAD", "--format", "json"] + BisectRepository.build + ["--", "./prog"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try JSONParser.parse(Array(outcome.stdout.utf8)).object
        let firstBad = json?["firstBad"]?.object
        #expect(firstBad?["commit"]?.string == repository.commits[11], "\(outcome.stdout)")
        #expect(firstBad?["summary"]?.string?.contains("commit 11") == true)
        #expect(firstBad?["stat"]?.string?.contains("2 files changed") == true)
        let measurements = json?["measurements"].flatMap { if case .number(let n) = $0 { Int(n.value) } else { nil } } ?? 0
        // The good commit, then ceil(log2(16 + 1)) steps, one more for the skipped one's neighbour.
        #expect(measurements >= 2 && measurements <= 1 + log2Ceiling(17) + 1, "\(measurements) measurements")
        let steps = json?["steps"]?.array ?? []
        let skipped = steps.filter { $0.object?["verdict"]?.string == "skipped" }
        #expect(skipped.count == 1 && skipped.first?.object?["commit"]?.string == repository.commits[8], "\(outcome.stdout)")
        #expect(skipped.first?.object?["note"]?.string?.contains("build failed") == true)
        // Exact: every good commit counts what the good end counted, every bad one the same as each other.
        func values(_ verdicts: Set<String>) -> Set<Double> {
            Set(
                steps.filter { verdicts.contains($0.object?["verdict"]?.string ?? "") }.compactMap {
                    if case .number(let n)? = $0.object?["value"] { n.value } else { nil }
                })
        }
        #expect(values(["good", "good end"]).count == 1, "\(outcome.stdout)")
        #expect(values(["bad"]).count == 1, "\(outcome.stdout)")
        // Work trees removed, the temporary directory empty.
        #expect(repository.extraWorktrees.isEmpty, "\(repository.extraWorktrees)")
        #expect(FileIO.entries(of: repository.temporary).isEmpty, "\(FileIO.entries(of: repository.temporary))")
        // Every measured commit is in the store.
        let listed = try CLI.run(["history", "list", "--store", repository.store], in: repository.path)
        #expect(listed.status == 0, "\(listed.stderr)")
        for step in steps where step.object?["verdict"]?.string != "skipped" {
            let commit = step.object?["commit"]?.string ?? "?"
            #expect(listed.stdout.contains(String(commit.prefix(7))), "\(commit) not stored: \(listed.stdout)")
        }
    }

    @Test func theTextReportSaysTheCommitAndTheChangeFirst() throws {
        let repository = try BisectRepository(count: 4, culprit: 4)
        defer { repository.remove() }
        let outcome = try repository.bisect(["--good", "HEAD~4", "--bad", "HEAD"] + BisectRepository.build + ["--", "./prog"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("first bad commit: \(repository.commits[4].prefix(7))") == true, "\(outcome.stdout)")
        #expect(lines.first?.contains("commit 4") == true)
        #expect(lines.contains { $0.contains("instructions of the launch total:") && $0.contains("→") }, "\(outcome.stdout)")
    }

    @Test func eachPhaseLeadsToTheCommitThatChangedIt() throws {
        // `computing` grows at commit 3, `reading` at commit 6.
        let repository = try BisectRepository(count: 8, culprit: nil) { i in
            BisectRepository.phases(reading: i >= 6 ? 3000 : 2000, computing: i >= 3 ? 3000 : 2000)
        }
        defer { repository.remove() }
        for (phase, culprit) in [("computing", 3), ("reading", 6)] {
            let outcome = try repository.bisect(
                ["--good", "HEAD~8", "--bad", "HEAD", "--phase", phase, "--format", "json"] + BisectRepository.phaseBuild + ["--", "./prog"])
            #expect(outcome.status == 0, "\(phase): \(outcome.stdout)\(outcome.stderr)")
            let json = try JSONParser.parse(Array(outcome.stdout.utf8)).object
            #expect(json?["phase"]?.string == phase)
            #expect(json?["firstBad"]?.object?["commit"]?.string == repository.commits[culprit], "\(phase): \(outcome.stdout)")
        }
    }

    @Test func aBadSideNoWorseThanTheGoodOneIsNothingToBisect() throws {
        let repository = try BisectRepository(count: 3, culprit: nil)
        defer { repository.remove() }
        let outcome = try repository.bisect(["--good", "HEAD~3", "--bad", "HEAD"] + BisectRepository.build + ["--", "./prog"])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("nothing to bisect: "), "\(outcome.stdout)")
        #expect(repository.extraWorktrees.isEmpty)
    }

    @Test func anUnknownPhaseIsRefusedAfterTheFirstMeasurementNamingThePhases() throws {
        let repository = try BisectRepository(count: 2, culprit: 2)
        defer { repository.remove() }
        let outcome = try repository.bisect(["--good", "HEAD~2", "--bad", "HEAD", "--phase", "no such"] + BisectRepository.build + ["--", "./prog"])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("--phase no such: no such phase"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("its phases:"))
        #expect(repository.extraWorktrees.isEmpty)
        #expect(FileIO.entries(of: repository.temporary).isEmpty)
    }

    @Test func interruptedMidBisectItLeavesNoWorkTreeNorBuild() throws {
        let repository = try BisectRepository(count: 8, culprit: 5)
        defer { repository.remove() }
        let range = ["bisect", "--good", "HEAD~8", "--bad", "HEAD"]
        // While the first work tree is made or built, while a commit is measured (8 commits take
        // several seconds of Callgrind), and during a slow build, whose children must end too.
        let rounds: [([String], Double)] = [
            (range + BisectRepository.build + ["--", "./prog"], 0.3),
            (range + BisectRepository.build + ["--", "./prog"], 1.5),
            (range + ["--build", "sleep 30 & wait; cc -O0 -o prog prog.c", "--", "./prog"], 1.0)
        ]
        for (arguments, delay) in rounds {
            let run = try Spawned(arguments, in: repository.path, environment: ["LAUNCHPROF_STORE": repository.store])
            let outcome = run.finish(signal: SIGINT, after: delay)
            #expect(outcome == .signalled(SIGINT), "after \(delay) s: \(outcome): \(run.stderr)")
            Leftovers.expectNone(after: run, marker: nil, context: "bisect interrupted after \(delay) s")
            #expect(repository.extraWorktrees.isEmpty, "after \(delay) s: \(repository.extraWorktrees)")
        }
    }
}

/// `--metric time`: each step against the good commit under the sequential rule.
struct BisectTimeTests {
    @Test func aPlantedSleepIsFoundUnderTheSequentialRule() throws {
        let repository = try BisectRepository(count: 4, culprit: 3, script: true)
        defer { repository.remove() }
        let outcome = try repository.bisect(["--good", "HEAD~4", "--bad", "HEAD", "--metric", "time", "--format", "json", "--", "./prog.sh"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let json = try JSONParser.parse(Array(outcome.stdout.utf8)).object
        #expect(json?["firstBad"]?.object?["commit"]?.string == repository.commits[3], "\(outcome.stdout)")
        let steps = json?["steps"]?.array ?? []
        #expect(steps.first?.object?["verdict"]?.string == "good end")
        #expect(steps.dropFirst().first?.object?["verdict"]?.string == "bad end", "the bad end is compared first: \(outcome.stdout)")
        #expect(steps.dropFirst().allSatisfy { $0.object?["note"]?.string?.contains("runs a side") == true })
        #expect(repository.extraWorktrees.isEmpty)
        #expect(FileIO.entries(of: repository.temporary).isEmpty)
    }
}

/// Bad input, refused before any build or measurement.
struct BisectInputTests {
    @Test func badRevisionsAndRangesAreUsageErrors() throws {
        let repository = try BisectRepository(count: 2, culprit: 2)
        defer { repository.remove() }
        let cases: [([String], String)] = [
            (["--good", "nope", "--bad", "HEAD", "--", "./prog"], "--good nope: not a commit"),
            (["--good", "HEAD~2", "--bad", "nope", "--", "./prog"], "--bad nope: not a commit"),
            (["--good", "HEAD", "--bad", "HEAD~2", "--", "./prog"], "is not an ancestor of --bad"),
            (["--good", "HEAD", "--bad", repository.commits[2], "--", "./prog"], "are the same commit"),
            (["--good", "HEAD~2", "--bad", "HEAD"], "give the command to measure")
        ]
        for (arguments, message) in cases {
            let outcome = try repository.bisect(arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(FileIO.entries(of: repository.temporary).isEmpty)
        }
        let badPhase = try repository.bisect(["--good", "HEAD~2", "--bad", "HEAD", "--phase", "a\u{1b}[2J", "--", "./prog"])
        #expect(badPhase.status == 2 && badPhase.stderr.contains("--phase"), "\(badPhase.stderr)")
        let brokenGood = try repository.bisect(["--good", "HEAD~2", "--bad", "HEAD", "--build", "exit 3", "--", "./prog"])
        #expect(brokenGood.status == 2 && brokenGood.stderr.contains("--build failed at the good commit"), "\(brokenGood.stderr)")
        #expect(repository.extraWorktrees.isEmpty)
        #expect(FileIO.entries(of: repository.temporary).isEmpty)
    }

    @Test func outsideAGitRepositoryIsAUsageError() throws {
        let directory = CLI.temporaryPath("bisect-nogit")
        try FileIO.createDirectories(directory)
        defer { FileIO.removeTree(directory) }
        let outcome = try CLI.run(
            ["bisect", "--good", "HEAD~1", "--bad", "HEAD", "--", "./prog"], in: directory, environment: CLI.outsideGit(directory))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("needs a git repository"), "\(outcome.stderr)")
    }
}
