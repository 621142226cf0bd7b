import LaunchprofTestSupport
import Testing
@testable import LaunchRunner
import LaunchCore
import LaunchTiers
#if canImport(Glibc)
import Glibc
#endif

/// The session spawner (`launchprof-spawn --serve`, ``SessionSpawner``), which starts a run's program
/// itself, against the spawner exec'd per run: the same runs (exit statuses, signals, environment,
/// descriptors, process group, cgroup, counters, errors), and its own life (it ends with its socket,
/// holds no descriptor it inherited; a server that has gone is not used).
@Suite struct SessionSpawnerTests {
    static let spawner = ProgramLaunchTests.spawner
    /// Runs get a cgroup of their own (the session spawner is used only for those).
    static let contained = RunContainment.Pool.shared != nil

    func launcher(_ script: String, session: Bool, _ configure: (inout ProgramOptions) -> Void = { _ in }) -> ProcessLauncher {
        var launcher = ProcessLauncher(executable: "/bin/sh", arguments: ["-c", script], timeout: 20)
        var program = ProgramOptions()
        program.spawner = Self.spawner
        program.spawnerSession = session
        configure(&program)
        launcher.program = program
        return launcher
    }

    /// What a program sees of its start, written by the shell to `file`, one fact a line.
    static func observingScript(_ file: String) -> String {
        """
        stdin=$(readlink /proc/$$/fd/0)
        stdout=$(readlink /proc/$$/fd/1)
        ls /proc/$$/fd > \(file).fds
        descriptors=$(sort -n \(file).fds | tr '\\n' ' ')
        rm \(file).fds
        {
          echo "token=$LAUNCHPROF_RUN"
          echo "fd=$LAUNCHPROF_FD"
          echo "extra=$EXTRA"
          echo "group=$(cut -d' ' -f5 /proc/$$/stat)"
          echo "parentpid=$PPID"
          echo "grandparent=$(cut -d' ' -f4 /proc/$PPID/stat)"
          echo "parent=$(tr '\\0' ' ' < /proc/$PPID/cmdline)"
          echo "cgroup=$(grep '^0::' /proc/$$/cgroup)"
          echo "stdin=$stdin"
          echo "stdout=$stdout"
          echo "descriptors=$descriptors"
          echo "signals=$(grep -E '^Sig(Blk|Ign)' /proc/$$/status | tr '\\n\\t' '  ')"
        } > \(file)
        exit 7
        """
    }

    static func facts(_ file: String) throws -> [String: String] {
        let text = try FileIO.readText(file)
        var facts: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            facts[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return facts
    }

    @Test(.enabled(if: SessionSpawnerTests.contained, "needs a cgroup v2 for the runs"))
    func bothPathsStartTheProgramAlike() throws {
        var seen: [Bool: [String: String]] = [:]
        for session in [true, false] {
            let file = TemporaryDirectory.uniquePath("session-\(session)")
            defer { unlink(file) }
            var launcher = launcher(Self.observingScript(file), session: session) { $0.ignoreFailure = true }
            launcher.environment = ["EXTRA": "a value with spaces"]
            let record = try launcher.launch(index: 1)
            #expect(record.process?.exitStatus == 7, "session \(session)")
            #expect(record.process?.signal == nil)
            #expect(try #require(record.peakResidentBytes) < 3 << 20, "the shell's own peak, session \(session)")
            let facts = try Self.facts(file)
            #expect(facts["token"]?.hasPrefix("\(getpid())-") == true, "LAUNCHPROF_RUN, session \(session)")
            #expect(facts["fd"] == "3")
            #expect(facts["extra"] == "a value with spaces")
            // Through the session: the program is launchprof's own child and leads its process group.
            // Exec'd per run: the run's spawner leads the group and is launchprof's child.
            #expect(facts["group"] == record.pid.map(String.init), "session \(session)")
            #expect(facts[session ? "parentpid" : "grandparent"] == String(getpid()), "session \(session)")
            #expect(facts["cgroup"]?.contains("/launchprof-") == true, "born in the run's cgroup: \(facts["cgroup"] ?? "")")
            #expect(facts["stdin"] == "/dev/null" && facts["stdout"] == "/dev/null")
            #expect(facts["parent"]?.contains("launchprof-spawn") == !session, "the program's parent: \(facts["parent"] ?? "")")
            // Its counters, /proc/<pid>/io included (read between its exit and its reaping).
            #expect(record.process?.counters?.bytesRead.map { $0 > 0 } == true, "session \(session)")
            #expect(record.process?.counters?.bytesWritten.map { $0 > 0 } == true, "session \(session)")
            seen[session] = facts
        }
        // Apart from the token, the spawner's own command line and the cgroup's name, the same start.
        for key in ["fd", "extra", "stdin", "stdout", "signals"] {
            #expect(seen[true]?[key] == seen[false]?[key], "\(key)")
        }
        // 0-3, nothing of the spawners'; the spawner exec'd per run also passes on what this process
        // leaves open without close-on-exec at that moment (a test harness's descriptors).
        // (10 and 11 are the shell's own: dash keeps copies of the descriptors it redirects there.)
        let descriptors = (seen[true]?["descriptors"] ?? "").split(separator: " ").compactMap { Int($0) }
        #expect(descriptors.filter { $0 < 10 } == [0, 1, 2, 3] && descriptors.allSatisfy { $0 < 4 || $0 == 10 || $0 == 11 }, "\(descriptors)")
        #expect(seen[false]?["descriptors"]?.hasPrefix("0 1 2 3 ") == true)
    }

    @Test(.enabled(if: SessionSpawnerTests.contained, "needs a cgroup v2 for the runs"))
    func exitStatusesAndSignalsAreTheProgramsOwn() throws {
        let cases: [(script: String, status: Int?, signal: Int?)] = [
            ("exit 0", 0, nil), ("exit 3", 3, nil), ("exit 255", 255, nil),
            // The spawner ignores these; the program must get their default actions back.
            ("kill -TERM $$", nil, Int(SIGTERM)), ("kill -INT $$", nil, Int(SIGINT)),
            ("kill -HUP $$", nil, Int(SIGHUP)), ("kill -KILL $$", nil, Int(SIGKILL)),
            ("kill -PIPE $$", nil, Int(SIGPIPE))
        ]
        for (script, status, signal) in cases {
            for session in [true, false] {
                let record = try launcher(script, session: session) { $0.ignoreFailure = true }.launch(index: 1)
                #expect(record.process?.exitStatus == status, "\(script), session \(session)")
                #expect(record.process?.signal == signal, "\(script), session \(session)")
            }
            if status != 0 {
                let errors = [true, false].map { session in
                    #expect(throws: RunnerError.self) { try launcher(script, session: session).launch(index: 1) }
                }
                #expect(errors[0] == errors[1], "\(script): the same error through both")
            }
        }
    }

    @Test(.enabled(if: SessionSpawnerTests.contained, "needs a cgroup v2 for the runs"))
    func aProgramThatCannotBeExecutedFailsWithTheSameError() throws {
        let notExecutable = TemporaryDirectory.uniquePath("session-plain")
        try FileIO.writeAtomically("not a program\n", to: notExecutable)
        defer { unlink(notExecutable) }
        for (executable, reason) in [("/nonexistent/program", "No such file or directory"), (notExecutable, "Permission denied")] {
            let errors = [true, false].map { session in
                var launcher = launcher("", session: session)
                launcher.executable = executable
                launcher.arguments = []
                return #expect(throws: RunnerError.self) { try launcher.launch(index: 1) }
            }
            #expect(errors[0] == .spawnFailed(executable: executable, reason: reason), "\(executable)")
            #expect(errors[0] == errors[1])
        }
    }

    @Test func theServerHoldsNoDescriptorItInherited() throws {
        // A pipe this process holds without close-on-exec (as a test harness's or a shell's would be).
        var held: [Int32] = [-1, -1]
        #expect(Glibc.pipe(&held) == 0)
        defer { for fd in held { close(fd) } }
        let server = try #require(SessionSpawner(path: Self.spawner))
        // Its descriptors once it has started serving (it closes them first thing): 0, 1, 2 and its socket.
        let giveUp = MonotonicClock.nanoseconds() &+ 30_000_000_000
        var open: [Int] = []
        repeat {
            usleep(2000)
            open = Self.openDescriptors(server.pid)
        } while open.count != 4 && MonotonicClock.nanoseconds() < giveUp
        #expect(open.count == 4 && open.prefix(3) == [0, 1, 2], "\(open)")
        for fd in held { #expect(!Self.descriptorTargets(server.pid).contains(Self.target(getpid(), fd)), "pipe end \(fd)") }
    }

    static func openDescriptors(_ pid: pid_t) -> [Int] {
        guard let directory = opendir("/proc/\(pid)/fd") else { return [] }
        defer { closedir(directory) }
        var found: [Int] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int(name) { found.append(fd) }
        }
        return found.sorted()
    }

    static func target(_ pid: pid_t, _ fd: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/\(pid)/fd/\(fd)", &buffer, 255)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    static func descriptorTargets(_ pid: pid_t) -> [String] { openDescriptors(pid).map { target(pid, Int32($0)) } }

    @Test(.enabled(if: SessionSpawnerTests.contained, "needs a cgroup v2 for the runs"))
    func aDirectStartIsTheProgramItselfBornInItsCgroup() throws {
        let server = try #require(SessionSpawner(path: Self.spawner))
        let containment = try #require(RunContainment.Pool.shared?.acquire())
        defer { RunContainment.Pool.shared?.release(containment) }
        var pipe: [Int32] = [-1, -1]
        #expect(Glibc.pipe(&pipe) == 0)
        defer { for fd in pipe where fd >= 0 { close(fd) } }
        let request = SessionSpawner.Request(
            input: nil, output: pipe[1], error: pipe[1], protocolDescriptor: pipe[1],
            options: [
                "--join", containment.directory, "--", "/bin/sh", "sh", "-c", "echo $PPID $(cut -d' ' -f5 /proc/$$/stat) $$; grep '^0::' /proc/$$/cgroup"
            ],
            environment: ["PATH=/usr/bin:/bin"])
        let before = MonotonicClock.nanoseconds()
        guard case .program(let pid, let clock)? = server.startDirect(request) else {
            Issue.record("no direct start")
            return
        }
        close(pipe[1])
        pipe[1] = -1
        #expect(clock.monotonicNanoseconds >= before && clock.monotonicNanoseconds <= MonotonicClock.nanoseconds(), "read just before the clone")
        #expect(Self.waitForExit(pid) == 0, "this process's child")
        var output = [UInt8](repeating: 0, count: 4096)
        let n = read(pipe[0], &output, output.count)
        let words = String(decoding: output[0..<max(0, n)], as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        #expect(words.count == 4, "\(words)")
        #expect(words.first == Substring(String(getpid())), "its parent is launchprof")
        #expect(words.count > 2 && words[1] == words[2], "it leads its own process group")
        #expect(words.last?.hasSuffix(String(containment.directory.split(separator: "/").last ?? "")) == true, "born in the run's cgroup")
    }

    @Test(.enabled(if: SessionSpawnerTests.contained, "needs a cgroup v2 for the runs"))
    func aRunUnderADutyCycleGoesThroughAForkedSpawner() throws {
        // The duty cycle spares the group's leader, a spawner waiting for the program: a tier's runs
        // are not started directly.
        let file = TemporaryDirectory.uniquePath("session-tier")
        defer { unlink(file) }
        var launcher = launcher(Self.observingScript(file), session: true) { $0.ignoreFailure = true }
        launcher.throttle = ThrottleSpec(cpuFactor: 2)
        launcher.throttleMechanism = .signals
        let record = try launcher.launch(index: 1)
        #expect(record.process?.exitStatus == 7)
        let facts = try Self.facts(file)
        #expect(facts["parent"]?.contains("--serve") == true, "the forked spawner: \(facts["parent"] ?? "")")
        #expect(facts["grandparent"] == String(getpid()))
        #expect(facts["group"] == record.pid.map(String.init))
    }

    @Test func theServerEndsWhenItsSocketCloses() throws {
        var server = SessionSpawner(path: Self.spawner)
        let pid = try #require(server?.pid)
        #expect(kill(pid, 0) == 0)
        server = nil
        #expect(Self.waitForExit(pid) == 0, "ended by the end of its socket, with status 0")
    }

    @Test func aServerThatHasGoneIsNotUsed() throws {
        let server = try #require(SessionSpawner(path: Self.spawner))
        kill(server.pid, SIGKILL)
        #expect(Self.waitForExit(server.pid) != nil)
        var pipe: [Int32] = [-1, -1]
        #expect(Glibc.pipe(&pipe) == 0)
        defer { for fd in pipe { close(fd) } }
        let request = SessionSpawner.Request(
            input: nil, output: nil, error: pipe[1], protocolDescriptor: pipe[1], options: ["--", "/bin/true", "true"], environment: [])
        #expect(server.start(request, report: pipe[1]) == nil, "the launcher then spawns the spawner itself")
        #expect(server.start(request, report: pipe[1]) == nil)
        let direct = SessionSpawner.Request(
            input: nil, output: nil, error: pipe[1], protocolDescriptor: pipe[1], options: ["--", "/bin/true", "true"], environment: [])
        #expect(server.startDirect(direct) == nil)
    }

    /// The exit status of the child `pid` once it has ended (polled, 30 s at most); `nil` if it did not.
    static func waitForExit(_ pid: pid_t) -> Int32? {
        let giveUp = MonotonicClock.nanoseconds() &+ 30_000_000_000
        var status: Int32 = 0
        while MonotonicClock.nanoseconds() < giveUp {
            if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xff }
            usleep(2000)
        }
        return nil
    }
}
