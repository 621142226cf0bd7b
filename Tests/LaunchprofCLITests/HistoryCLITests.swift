import Foundation
import LaunchprofTestSupport
import LaunchCore
import LaunchExport
import LaunchResults
import Testing

/// `record --store`, `history list/show/import/export`, and lookups by revision in every kind of store.
@Suite(.serialized) struct HistoryCLITests {
    /// A new git repository with `commits` empty commits.
    static func repository(commits: Int) throws -> String {
        let repository = CLI.temporaryPath("history-repo")
        try FileIO.createDirectories(repository)
        for i in 0..<(commits + 1) {
            let arguments =
                i == 0
                ? ["init", "-q"]
                : ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "c\(i) in \(repository)"]
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: repository)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        return repository
    }

    static func record(_ repository: String, _ extra: [String] = [], checkout: String? = nil, environment: [String: String] = [:]) throws -> CLI.Outcome {
        if let checkout {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "checkout", "-q", checkout]
            process.currentDirectoryURL = URL(fileURLWithPath: repository)
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }
        return try CLI.run(["record", "--runs", "2", "--warmup", "0", "--manifest", try TestManifest.make()] + extra, in: repository, environment: environment)
    }

    @Test func recordsIntoTheDatabaseAndExportsWhatTheResultWriterWrites() throws {
        let repository = try Self.repository(commits: 2)
        let first = try Self.record(repository, ["--quiet"], checkout: "HEAD~1")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try Self.record(repository, ["--output", "second.json"], checkout: "-")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("launchprof: recorded .launchprof/history.sqlite (commit "))
        let list = try CLI.run(["history", "list"], in: repository)
        #expect(list.status == 0)
        #expect(list.stdout.hasPrefix("2 results at 2 commits in .launchprof/history.sqlite\n"))
        #expect(list.stdout.split(separator: "\n").count == 4)
        let show = try CLI.run(["history", "show", "HEAD"], in: repository)
        #expect(show.status == 0 && show.stdout.contains("manifest default, tier host, time, 2 runs") && show.stdout.contains("Total launch time"))
        let diff = try CLI.run(["diff", "HEAD~1", "HEAD"], in: repository)
        #expect(diff.status == 0, "\(diff.stderr)")
        let export = try CLI.run(["history", "export", "--output", "out", "--quiet"], in: repository)
        #expect(export.status == 0, "\(export.stderr)")
        let head = try #require(CommandLine.git(["rev-parse", "HEAD"], in: repository))
        // Byte for byte what `--output` wrote of the same result.
        #expect(try FileIO.read("\(repository)/out/\(head).json") == FileIO.read("\(repository)/second.json"))
    }

    @Test func anExistingResultsDirectoryKeepsBeingUsedUntilImported() throws {
        // Three commits: the two recorded both have a parent.
        let repository = try Self.repository(commits: 3)
        try FileIO.createDirectories("\(repository)/.launchprof/results")
        let old = try Self.record(repository, ["--format", "json"], checkout: "HEAD~1")
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stderr.contains("note: storing into .launchprof/results/ as before"))
        #expect(FileIO.entries(of: "\(repository)/.launchprof/results").count == 1 && !FileIO.exists("\(repository)/.launchprof/history.sqlite"))
        let imported = try CLI.run(["history", "import", ".launchprof/results"], in: repository)
        #expect(imported.status == 0 && imported.stderr.contains("imported 1 result into .launchprof/history.sqlite"), "\(imported.stderr)")
        let new = try Self.record(repository, ["--format", "json"], checkout: "-")
        #expect(new.status == 0 && !new.stderr.contains("note:"), "\(new.stderr)")
        // HEAD~1 is in both, HEAD only in the database: a revision is found in either.
        #expect(try CLI.run(["diff", "HEAD~1", "HEAD"], in: repository).status == 0)
        #expect(try CLI.run(["diff", "HEAD~1", "HEAD", "--store", ".launchprof/results"], in: repository).stderr.contains("no stored result for HEAD"))
        let list = try CLI.run(["history", "list", "--format", "json", "--store", ".launchprof/history.sqlite"], in: repository)
        let lines = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(lines?.count == 2)
        #expect(lines?.allSatisfy { ($0["parents"] as? [String])?.count == 1 && $0["target"] as? String == "default" } == true)
    }

    @Test func theEnvironmentNamesTheStore() throws {
        let repository = try Self.repository(commits: 1)
        let outcome = try Self.record(repository, ["--quiet"], environment: ["LAUNCHPROF_STORE": "ci/perf.db"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileIO.exists("\(repository)/ci/perf.db") && !FileIO.exists("\(repository)/.launchprof"))
        let list = try CLI.run(["history", "list", "--store", "ci/perf.db"], in: repository)
        #expect(list.stdout.hasPrefix("1 result at 1 commit in ci/perf.db"))
    }

    @Test func aCorruptStoreIsRefusedBeforeAnyRunAndLeftAsItWas() throws {
        let repository = try Self.repository(commits: 1)
        try FileIO.createDirectories("\(repository)/.launchprof")
        let garbage = Array("not a database, but someone's notes\n".utf8) + [UInt8](repeating: 7, count: 2000)
        try FileIO.writeAtomically(garbage, to: "\(repository)/.launchprof/history.sqlite")
        let outcome = try Self.record(repository)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(".launchprof/history.sqlite: not a SQLite database, or a corrupt one"), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("Total launch time"))
        #expect(try FileIO.read("\(repository)/.launchprof/history.sqlite") == garbage)
        let list = try CLI.run(["history", "list"], in: repository)
        #expect(list.status == 2 && list.stderr.contains("not a SQLite database"))
    }

    /// 8 processes storing at once into one SQLite history, each from a repository of its own (8 commits):
    /// every result stored, each intact.
    @Test func eightParallelWritersIntoOneDatabase() throws {
        let store = CLI.temporaryPath("parallel") + "/history.sqlite"
        let repositories = try (0..<8).map { _ in try Self.repository(commits: 1) }
        // Each writer's exit status and stderr, one slot per writer (each thread writes only its own).
        let outcomes = UnsafeMutableBufferPointer<(Int32, String)>.allocate(capacity: repositories.count)
        defer { outcomes.deallocate() }
        nonisolated(unsafe) let slots = outcomes
        DispatchQueue.concurrentPerform(iterations: repositories.count) { i in
            let outcome = try? CLI.run(["exec", "--store", store, "--runs", "2", "--warmup", "0", "--quiet", "--", "/bin/true"], in: repositories[i])
            (slots.baseAddress! + i).initialize(to: (outcome?.status ?? -1, outcome?.stderr ?? "could not start"))
        }
        for (status, stderr) in outcomes { #expect(status == 0, "\(stderr)") }
        let export = CLI.temporaryPath("parallel-export")
        let exported = try CLI.run(["history", "export", "--store", store, "--output", export, "--quiet"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let heads = Set(repositories.compactMap { CommandLine.git(["rev-parse", "HEAD"], in: $0) })
        let files = FileIO.entries(of: export).sorted()
        #expect(files.count == 8 && heads.count == 8)
        for file in files {
            let result = try ResultFile.read("\(export)/\(file)")
            #expect(heads.contains(result.git?.commit ?? "") && result.runs.count == 2 && result.manifest.name == "/bin/true")
        }
    }

    @Test func importRefusesAResultWithoutACommitBeforeStoringAny() throws {
        let repository = try Self.repository(commits: 1)
        let loose = CLI.temporaryPath("loose.json")
        // Made outside any git work tree (even where $TMPDIR lies in one): the result names no commit.
        let outside = CLI.temporaryPath("no-git")
        try FileIO.createDirectories(outside)
        let made = try CLI.run(
            ["run", "--runs", "1", "--warmup", "0", "--quiet", "--manifest", try TestManifest.make(), "--output", loose], in: outside,
            environment: CLI.outsideGit(outside))
        #expect(made.status == 0)
        let outcome = try CLI.run(["history", "import", loose], in: repository)
        #expect(outcome.status == 2 && outcome.stderr.contains("\(loose): the result names no git commit"), "\(outcome.stderr)")
        #expect(!FileIO.exists("\(repository)/.launchprof/history.sqlite"))
    }
}

extension CommandLine {
    /// `git arguments` in `directory`, its output without the final newline.
    static func git(_ arguments: [String], in directory: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        guard let data = try? OutputFiles.run(process).stdout else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
