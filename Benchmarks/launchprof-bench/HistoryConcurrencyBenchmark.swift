#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LaunchCore
import LaunchExport
import LaunchResults
import LaunchHistory

/// `make bench`: issue 30's concurrency goal and PostgreSQL's size. 8 `record --store` at once (one
/// run of the default launch each, every process from a git repository of its own) into one SQLite
/// file and into one PostgreSQL database: every result stored, each byte for byte what its `--output`
/// wrote; timed against 8 parallel `run --output` of the same launches, alternated. Then bytes per
/// 50-phase × 10-run result in PostgreSQL, as ``HistoryBenchmark`` measures SQLite's.
/// `launchprof-bench history-concurrency` runs only this benchmark; PostgreSQL 15's server binaries
/// (`make setup`) are needed for its half, started on a Unix socket in a temporary directory.
struct HistoryConcurrencyBenchmark {
    var writers = 8
    var rounds = 3
    /// The launchprof measured (`launchprof-bench history-concurrency PATH` for another build).
    var executable = benchedLaunchprof
    let helper = DiffScaleBenchmark()

    func report() {
        do { try run() } catch { print("history concurrency: failed: \(error)") }
    }

    func run() throws {
        guard access(executable, X_OK) == 0 else {
            print("history concurrency: skipped (\(executable) not built)")
            return
        }
        let directory = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-concurrency-bench-")
        defer { FileIO.removeTemporaryDirectory(directory) }
        // Its own directory under /tmp, which the `postgres` user can reach (the one above is root's alone).
        let server = BenchPostgres(directory: try FileIO.makeTemporaryDirectory(in: "/tmp", prefix: "launchprof-bench-pg-"))
        let postgres = server.start()
        defer { server.stop() }
        let repositories = try (0..<writers).map { try repository(directory + "/repo\($0)") }
        var backends = [("SQLite", { (round: Int) in directory + "/round\(round).sqlite" })]
        if let postgres {
            backends.append(("PostgreSQL", { (round: Int) in (try? server.newDatabase("r\(round)")) ?? postgres }))
        } else {
            print("history concurrency: PostgreSQL half skipped: \(server.unavailable ?? "the server did not start")")
        }
        for (name, store) in backends { try parallel(name, store: store, repositories) }
        if postgres != nil { try size(server) }
    }

    /// `rounds` rounds: 8 parallel `record --store` (a new store each round) and 8 parallel `run --output`, alternated.
    func parallel(_ backend: String, store: (Int) -> String, _ repositories: [String]) throws {
        let common = ["--runs", "1", "--warmup", "0", "--quiet", "--snapshot", "snapshot.png"]
        var recorded: [Double] = [], plain: [Double] = []
        var stored = 0, intact = 0, expected = 0
        for round in 0..<rounds {
            let location = store(round)
            let record = repositories.map { _ in ["record", "--store", location, "--output", "result.json"] + common }
            let run = repositories.map { _ in ["run", "--output", "plain.json"] + common }
            if round % 2 == 0 {
                plain.append(try launchAll(run, in: repositories))
                recorded.append(try launchAll(record, in: repositories))
            } else {
                recorded.append(try launchAll(record, in: repositories))
                plain.append(try launchAll(run, in: repositories))
            }
            let (count, same) = try verify(location, repositories)
            stored += count
            intact += same
            expected += repositories.count
        }
        recorded.sort()
        plain.sort()
        let r = recorded[rounds / 2], p = plain[rounds / 2]
        print(
            "history: \(writers) parallel record --store into \(backend), \(rounds) rounds: \(stored) of \(expected) results stored, \(intact) intact (goal: all): \(stored == expected && intact == expected ? "met" : "missed"); all \(writers) done in \(format(r)) ms vs \(format(p)) ms for \(writers) parallel run --output, medians (load average \(helper.loadAverage()))"
        )
    }

    /// Starts every command (launchprof's arguments) at once, each in its repository, and waits for all: the wall time in ms.
    func launchAll(_ commands: [[String]], in directories: [String]) throws -> Double {
        let began = MonotonicClock.nanoseconds()
        let program = URL(fileURLWithPath: executable).standardizedFileURL.path
        let processes = try zip(commands, directories).map { arguments, directory in try start(program, arguments, in: directory) }
        for (pid, arguments) in zip(processes, commands) {
            let status = wait(pid)
            guard status == 0 else { throw CoreError.system(path: program, action: "launch", reason: "\(arguments) exited \(status)") }
        }
        return Double(MonotonicClock.nanoseconds() - began) / 1e6
    }

    /// How many results `location` holds for the repositories' commits, and how many are byte for byte their `result.json`.
    func verify(_ location: String, _ repositories: [String]) throws -> (Int, Int) {
        let opened = try StoreLocation(location).open(create: false)
        var written: [String: [UInt8]] = [:]
        for repository in repositories {
            let bytes = try FileIO.read(repository + "/result.json")
            written[try ResultFile.decode(bytes, path: repository + "/result.json").git?.commit ?? ""] = bytes
        }
        let entries = try opened.entries().filter { written[$0.commit.hash] != nil }
        var intact = 0
        for entry in entries where try opened.document(entry) == written[entry.commit.hash] { intact += 1 }
        return (Set(entries.map(\.commit.hash)).count, intact)
    }

    /// PostgreSQL's bytes per 50-phase × 10-run result: the tables' total size (heap, TOAST, indexes) after 200 results, over 200.
    func size(_ server: BenchPostgres) throws {
        let url = try server.newDatabase("size")
        let bench = HistoryBenchmark()
        let store = try StoreLocation(url).open(create: true)
        let database = try PostgresDatabase(url: url)
        let sizeQuery =
            "SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'"
        let empty = try database.execute(sizeQuery, []).first?[0].real ?? .nan
        var noise = DiffScaleBenchmark.Generator(seed: 7)
        for n in 0..<bench.stored {
            try store.save(bench.result(commit: n, noise: &noise), commit: CommitInfo(hash: bench.hash(n), parents: [bench.hash(n - 1)]))
        }
        try database.execute("VACUUM ANALYZE", [])
        let full = try database.execute(sizeQuery, []).first?[0].real ?? .nan
        let documents = try database.execute("SELECT AVG(pg_column_size(document)) FROM results", []).first?[0].real ?? .nan
        let perResult = (full - empty) / Double(bench.stored)
        print(
            "history: bytes per result (\(bench.phases) phases x \(bench.runs) runs, PostgreSQL 15, \(bench.stored) results, tables with TOAST and indexes)  \(Int(perResult)) B: the document \(Int(documents)) B as stored; a 10,000-result history about \(Int(perResult * 10_000 / 1e6)) MB"
        )
    }

    func repository(_ path: String) throws -> String {
        try FileIO.createDirectories(path)
        let git = ["-c", "user.name=b", "-c", "user.email=b@b", "-c", "commit.gpgsign=false"]
        for arguments in [git + ["init", "-q"], git + ["commit", "-q", "--allow-empty", "-m", "bench \(path)"]] {
            guard wait(try start("/usr/bin/git", arguments, in: path)) == 0 else {
                throw CoreError.system(path: path, action: "git", reason: "\(arguments) failed")
            }
        }
        return path
    }

    /// Starts `program` with `arguments` in `directory` (through `env -C`), its output into `output`
    /// (discarded by default): posix_spawn and waitpid, since Foundation's Process can miss a child's exit here.
    func start(_ program: String, _ arguments: [String], in directory: String, output: String = "/dev/null") throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = (["/usr/bin/env", "-C", directory, program] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/env", &actions, nil, &argv, environ) == 0 else {
            throw CoreError.system(path: program, action: "spawn", reason: String(cString: strerror(errno)))
        }
        return pid
    }

    /// Waits for `pid`: its exit status (128 + the signal when one ended it).
    func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

/// A throwaway PostgreSQL 15 server for the benchmark, as the tests start one (Tests/LaunchHistoryTests/ThrowawayPostgres.swift):
/// initdb as `postgres` when root, listening only on a Unix socket in `directory`.
struct BenchPostgres {
    static let binaries = "/usr/lib/postgresql/15/bin"
    let directory: String
    let spawner = HistoryConcurrencyBenchmark()

    var unavailable: String? {
        access("\(Self.binaries)/initdb", X_OK) == 0
            ? nil : "PostgreSQL 15 not installed (\(Self.binaries)/initdb missing): `make setup` installs postgresql-15"
    }

    /// The `postgres` database's URL once the server runs, `nil` when it cannot start.
    func start() -> String? {
        guard unavailable == nil else { return nil }
        if getuid() == 0, let user = getpwnam("postgres") { chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) }
        guard run(["\(Self.binaries)/initdb", "-D", "\(directory)/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]) else { return nil }
        guard
            run([
                "\(Self.binaries)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-t", "60", "-o",
                "-k \(directory) -c listen_addresses='' -c max_connections=40", "start"
            ])
        else { return nil }
        return url("postgres")
    }

    func stop() {
        if FileIO.isDirectory(directory + "/data") { _ = run(["\(Self.binaries)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"]) }
        FileIO.removeTemporaryDirectory(directory)
    }

    func newDatabase(_ name: String) throws -> String {
        try PostgresDatabase(url: url("postgres")).execute("CREATE DATABASE \(name)", [])
        return url(name)
    }

    func url(_ database: String) -> String { "postgresql:///\(database)?host=\(directory)&user=postgres" }

    func run(_ arguments: [String]) -> Bool {
        let argv = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
        guard let pid = try? spawner.start(argv[0], Array(argv.dropFirst()), in: "/") else { return false }
        return spawner.wait(pid) == 0
    }
}
