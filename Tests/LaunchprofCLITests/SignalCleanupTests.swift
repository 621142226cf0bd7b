import Foundation
import Testing
import LaunchCore

/// launchprof interrupted by SIGINT, SIGTERM or SIGHUP at random moments of `run`, `exec`,
/// `compare`, `check` and `--relaunch-after` (and ended normally): afterwards no process carries
/// the run's token (`LAUNCHPROF_RUN=<launchprof's pid>-…`), no daemon it started is left (one that
/// left the process group with `setsid`, one that also cleared its environment), its own temporary
/// directory (`TMPDIR`, one per test) is empty, and none of its run cgroups is left.
@Suite(.serialized) struct SignalCleanupTests {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Whether launchprof can hold each run in a cgroup v2 here (root, a v2 hierarchy with `cgroup.kill`).
    static let cgroupsAvailable: Bool = {
        guard getuid() == 0, let directory = Leftovers.ownCgroupDirectory() else { return false }
        let probe = directory + "/launchprof-probe-\(getpid())"
        guard mkdir(probe, 0o755) == 0 else { return false }
        defer { rmdir(probe) }
        return access(probe + "/cgroup.kill", W_OK) == 0
    }()

    /// A daemon script named by a unique marker: it leaves the group (`setsid`), ignores the
    /// signals a program is stopped with and lives on.
    static func daemon(in directory: String, clearingEnvironment: Bool) throws -> (command: String, marker: String) {
        let marker = "lpdaemon\(UInt32.random(in: 0...UInt32.max))"
        let script = directory + "/\(marker).sh"
        try "trap '' HUP INT TERM\nwhile :; do sleep 0.1; done\n".write(toFile: script, atomically: true, encoding: .utf8)
        let start = clearingEnvironment ? "setsid env -i /bin/sh \(script)" : "setsid /bin/sh \(script)"
        return ("\(start) </dev/null >/dev/null 2>&1 & sleep 0.2", marker)
    }

    /// Runs `arguments` `rounds` times, each interrupted by the next of ``signals`` at a random
    /// moment within `window` seconds, and checks that each left nothing.
    func interrupt(_ arguments: [String], rounds: Int, window: ClosedRange<Double>, marker: String? = nil) throws {
        for round in 0..<rounds {
            let signal = Self.signals[round % Self.signals.count]
            let delay = Double.random(in: window)
            let run = try Spawned(arguments)
            let outcome = run.finish(signal: signal, after: delay)
            let context = "\(arguments.prefix(2).joined(separator: " ")) signalled \(signal) after \(String(format: "%.2f", delay)) s"
            #expect(outcome == .signalled(signal) || outcome == .exited(0), "\(context): \(outcome), stderr: \(run.stderr)")
            Leftovers.expectNone(after: run, marker: marker, context: context)
        }
    }

    @Test func execInterruptedLeavesNoDaemonThatLeftTheGroup() throws {
        let directory = try Leftovers.makeDirectory()
        defer { FileIO.removeTree(directory) }
        let daemon = try Self.daemon(in: directory, clearingEnvironment: false)
        try interrupt(["exec", "--runs", "3", "--warmup", "0", "--", "/bin/sh", "-c", daemon.command], rounds: 6, window: 0...0.8, marker: daemon.marker)
    }

    @Test(.enabled(if: SignalCleanupTests.cgroupsAvailable, "needs a cgroup v2 launchprof may make cgroups in"))
    func daemonsThatClearTheirEnvironmentEndWithTheRun() throws {
        let directory = try Leftovers.makeDirectory()
        defer { FileIO.removeTree(directory) }
        let daemon = try Self.daemon(in: directory, clearingEnvironment: true)
        let arguments = ["exec", "--runs", "2", "--warmup", "0", "--", "/bin/sh", "-c", daemon.command]
        // A normal end: only the run's cgroup finds it.
        let normal = try Spawned(arguments)
        #expect(normal.finish(signal: nil, after: 0) == .exited(0), "\(normal.stderr)")
        Leftovers.expectNone(after: normal, marker: daemon.marker, context: "exec ended normally")
        try interrupt(arguments, rounds: 3, window: 0...0.6, marker: daemon.marker)
        // A --prepare step (no spawner: moved into its cgroup after its spawn) is held the same way.
        let prepared = try Spawned(["exec", "--runs", "1", "--warmup", "0", "--prepare", daemon.command, "--", "/bin/true"])
        #expect(prepared.finish(signal: nil, after: 0) == .exited(0), "\(prepared.stderr)")
        Leftovers.expectNone(after: prepared, marker: daemon.marker, context: "exec --prepare ended normally")
    }

    @Test(.enabled(if: ExecutableSearchForTests.has("git"), "needs git"))
    func execWithAGitTraceInterruptedRemovesItsTraceDirectory() throws {
        try interrupt(
            ["exec", "--runs", "4", "--warmup", "0", "--trace", "git-trace2", "--", "git", "-c", "alias.nap=!sleep 0.15", "nap"],
            rounds: 6, window: 0...0.8)
    }

    @Test func relaunchInterruptedEndsEveryLaunchInFlight() throws {
        // Each closing app sends a report for 2 s, so the older one is still running when the next starts.
        let manifest = try TestManifest.with(strategies: #""snapshotFirst": true, "sendReportOnClose": {"seconds": 2}"#, name: "interrupt-relaunch").manifest
        try interrupt(
            ["run", "--manifest", manifest, "--runs", "3", "--warmup", "0", "--relaunch-after", "0.05", "--quiet"], rounds: 3,
            window: 0.2...1.5)
    }

    @Test func runCheckAndCompareInterruptedLeaveNothing() throws {
        let manifest = try TestManifest.with(strategies: "", name: "interrupt").manifest
        try interrupt(["run", "--manifest", manifest, "--runs", "3", "--warmup", "0", "--quiet"], rounds: 3, window: 0...0.6)
        let baseline = CLI.temporaryPath("interrupt-baseline.json")
        defer { unlink(baseline) }
        let made = try CLI.run(["run", "--manifest", manifest, "--runs", "3", "--warmup", "0", "--quiet", "--output", baseline])
        try #require(made.status == 0, "\(made.stderr)")
        try interrupt(["check", "--manifest", manifest, "--baseline", baseline, "--runs", "3", "--warmup", "0", "--quiet"], rounds: 3, window: 0...0.6)
        try interrupt(
            ["compare", "--manifest", manifest, "--strategy", "snapshotFirst", "--runs", "2", "--warmup", "0", "--quiet"], rounds: 3,
            window: 0...0.8)
    }

    @Test(.enabled(if: ExecutableSearchForTests.has("valgrind"), "needs valgrind"))
    func instructionCountingInterruptedRemovesItsCallgrindDirectory() throws {
        let manifest = try TestManifest.make()
        try interrupt(["run", "--manifest", manifest, "--runs", "1", "--warmup", "0", "--metric", "instructions", "--quiet"], rounds: 1, window: 1...2)
    }

    @Test func errorsAndNormalEndsLeaveNoTemporaryDirectory() throws {
        // exec's trace directory is made before the first run; a run that fails ends launchprof with exit 2.
        let failing = try Spawned(["exec", "--runs", "2", "--trace", "git-trace2", "--", "/bin/sh", "-c", "exit 3"])
        #expect(failing.finish(signal: nil, after: 0) == .exited(2), "\(failing.stderr)")
        Leftovers.expectNone(after: failing, marker: nil, context: "exec of a failing program")
        let normal = try Spawned(["exec", "--runs", "2", "--trace", "git-trace2", "--", "/bin/sh", "-c", "exit 0"])
        #expect(normal.finish(signal: nil, after: 0) == .exited(0) || normal.stderr.contains("trace"), "\(normal.stderr)")
        Leftovers.expectNone(after: normal, marker: nil, context: "exec ended normally")
    }
}

enum ExecutableSearchForTests {
    static func has(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }
}

/// One launchprof started with a `TMPDIR` of its own, its output in files there, its signals at
/// their defaults and unblocked (as a shell starts a command).
final class Spawned {
    enum Outcome: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        case hung

        var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            case .hung: "still running after 30 s"
            }
        }
    }

    let pid: pid_t
    /// The `TMPDIR` given to it; its stdout and stderr go to a sibling directory.
    let temporaryDirectory: String
    let outputDirectory: String

    /// Started in `directory` (default: the test's own), with `extra` added to its environment.
    init(_ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:]) throws {
        temporaryDirectory = try Leftovers.makeDirectory()
        outputDirectory = try Leftovers.makeDirectory()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputDirectory + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, outputDirectory + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporaryDirectory
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        // In another directory: through a shell that enters it and execs launchprof (the same process).
        let program = directory == nil ? CLI.executable : "/bin/sh"
        let entering = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0] } ?? []
        let argv = (entering + [CLI.executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        self.pid = pid
    }

    deinit {
        FileIO.removeTree(temporaryDirectory)
        FileIO.removeTree(outputDirectory)
    }

    var stderr: String { (try? String(contentsOfFile: outputDirectory + "/stderr", encoding: .utf8)) ?? "" }

    /// Sends `signal` after `delay` seconds (unless it has ended by then), then waits for the end,
    /// at most 30 s (then kills it).
    func finish(signal: Int32?, after delay: Double) -> Outcome {
        var status: Int32 = 0
        let sendAt = Date().addingTimeInterval(delay)
        var sent = signal == nil
        let giveUp = Date().addingTimeInterval(30)
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if !sent, Date() >= sendAt, let signal {
                kill(pid, signal)
                sent = true
            }
            if Date() >= giveUp {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return .hung
            }
            usleep(2000)
        }
        let low = status & 0x7f
        return low == 0 ? .exited((status >> 8) & 0xff) : .signalled(low)
    }
}

/// What an ended launchprof may have left behind.
enum Leftovers {
    /// A new empty directory of the test's own.
    static func makeDirectory() throws -> String {
        let path = CLI.temporaryPath("interrupt")
        try FileIO.createDirectories(path)
        return path
    }

    /// The test process's own cgroup v2 directory (where launchprof, its child, makes its run cgroups).
    static func ownCgroupDirectory() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        let path = String(line.dropFirst(3))
        for mount in ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"] where access(mount + "/cgroup.procs", F_OK) == 0 {
            return mount + (path == "/" ? "" : path)
        }
        return nil
    }

    /// The processes whose environment holds `LAUNCHPROF_RUN=<pid>-` or launchprof's own `TMPDIR`
    /// (what it started: its session spawner too), or whose command line holds `marker`.
    static func processes(ofLaunchprof pid: pid_t, temporaryDirectory: String? = nil, marker: String?) -> [String] {
        let token = Array("\u{0}LAUNCHPROF_RUN=\(pid)-".utf8)
        let environment = temporaryDirectory.map { Array("\u{0}TMPDIR=\($0)\u{0}".utf8) }
        var found: [String] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        for name in FileIO.entries(of: "/proc") where Int32(name) != nil && Int32(name) != pid {
            if contains("/proc/\(name)/environ", token, buffer: &buffer) {
                found.append("\(name) (token)")
            } else if let environment, contains("/proc/\(name)/environ", environment, buffer: &buffer) {
                found.append("\(name) (launchprof's TMPDIR: \(String(decoding: Array(commandLine(name, buffer: &buffer)), as: UTF8.self)))")
            } else if let marker, contains("/proc/\(name)/cmdline", Array(marker.utf8), buffer: &buffer) {
                found.append("\(name) (\(marker))")
            }
        }
        return found
    }

    /// The command line of process `name`, its arguments joined by spaces (its first 200 bytes).
    static func commandLine(_ name: String, buffer: inout [UInt8]) -> ArraySlice<UInt8> {
        let fd = open("/proc/\(name)/cmdline", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, min(200, $0.count)) }
        return buffer[0..<max(0, n)].map { $0 == 0 ? UInt8(ascii: " ") : $0 }[...]
    }

    /// Whether the file at `path` (its first MiB, after a NUL put first) holds `needle`.
    static func contains(_ path: String, _ needle: [UInt8], buffer: inout [UInt8]) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var count = 1
        buffer[0] = 0  // so that the first entry also follows a NUL
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n <= 0 { break }
            count += n
        }
        guard count >= needle.count else { return false }
        return buffer.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { wanted in
                (0...(count - wanted.count)).contains { i in
                    haystack[i] == wanted[0] && memcmp(haystack.baseAddress! + i, wanted.baseAddress!, wanted.count) == 0
                }
            }
        }
    }

    /// Expects nothing left by `run`: processes (given 1 s to finish exiting), temporary files, cgroups.
    static func expectNone(after run: Spawned, marker: String?, context: String) {
        var processes = processes(ofLaunchprof: run.pid, temporaryDirectory: run.temporaryDirectory, marker: marker)
        let giveUp = Date().addingTimeInterval(1)
        while !processes.isEmpty, Date() < giveUp {
            usleep(20_000)
            processes = self.processes(ofLaunchprof: run.pid, temporaryDirectory: run.temporaryDirectory, marker: marker)
        }
        #expect(processes.isEmpty, "\(context): processes left: \(processes)")
        for entry in processes { if let pid = Int32(entry.split(separator: " ")[0]) { kill(pid, SIGKILL) } }
        let files = FileIO.entries(of: run.temporaryDirectory)
        #expect(files.isEmpty, "\(context): left in TMPDIR: \(files)")
        if let cgroups = ownCgroupDirectory() {
            let left = FileIO.entries(of: cgroups).filter { $0.hasPrefix("launchprof-\(run.pid)-") }
            #expect(left.isEmpty, "\(context): cgroups left: \(left)")
        }
    }
}
