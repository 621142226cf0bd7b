#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchTiers
import LaunchTraces

/// A key press the launcher delivers at `seconds` after the spawn (`--tap SECONDS:KEY`).
public struct ScheduledTap: Equatable, Sendable {
    public var seconds: Double
    public var key: String

    public init(seconds: Double, key: String) {
        self.seconds = seconds
        self.key = key
    }
}

/// Starts a program as a new process with `posix_spawn`, reads its launch report (the line protocol
/// of `docs/protocol.md`) from file descriptor 3, and returns the run, timed from just before the spawn.
///
/// A crash, a hang past the timeout, a non-zero exit, a malformed line or a report over the limits
/// becomes a ``RunnerError``. When the program exits, what its pipes still hold is read for at
/// most ``drainNanoseconds`` (a grandchild that keeps them open cannot hold the run to the timeout),
/// then its whole process group is killed and reaped, so nothing it started survives the run and no
/// zombie is left.
public struct ProcessLauncher: Sendable {
    /// The file descriptor the program writes the protocol to.
    public static let protocolDescriptor = AppInterface.protocolDescriptor
    /// The most protocol bytes one run may send (64 MiB); past it the program is killed.
    public static let maxProtocolBytes = 64 << 20
    /// The most `begin`, `mark`, `count` and `deferred` lines one run may send; past it the program is killed.
    public static let maxProtocolRecords = 1_000_000
    /// How long the pipes are still read after the program exited (200 ms).
    public static let drainNanoseconds: UInt64 = 200_000_000

    public var executable: String
    public var arguments: [String]
    /// Extra environment variables (added to this process's environment).
    public var environment: [String: String]
    /// Seconds the program may take before it is killed.
    public var timeout: Double
    /// Called with the text of each `x-progress` line (the stage the program has reached).
    public var onProgress: (@Sendable (String) -> Void)?
    /// When set, the program runs under Callgrind (the caller built the command with
    /// ``InstructionCounting/command(executable:arguments:)``) and each run gets its instruction counts.
    public var instructionCounting: InstructionCounting?
    /// Marks every run must send (`first frame` and `interactive` for the built-in app); a complete
    /// report without one of them is ``RunnerError/missingMark(_:)``.
    public var expectedMarks: [String] = []
    /// Lines for the program's standard input, the control channel (`docs/protocol.md`): written
    /// when the `interactive` mark arrives (the launch is over), then the input is closed. Empty:
    /// standard input is `/dev/null`. The built-in app gets `background` and `quit`.
    public var inputAfterLaunch: [ControlCommand] = []
    /// Key presses delivered on the control channel (`tap <key>`) at their times after the spawn,
    /// like the OS delivering events; ``inputAfterLaunch`` waits until the last is sent. The run's
    /// ``RunRecord/taps`` says what became of them.
    public var taps: [ScheduledTap] = []
    /// Seconds the program may spend after `background` is sent (the OS's limit for an app going to
    /// the background, 5 s); past it the program is killed with SIGKILL, like the OS kills it, and
    /// the run fails with ``RunnerError/killedInBackground(seconds:inPhase:)``. `nil`: no limit.
    public var backgroundBudget: Double?
    /// Called when the lines after launch (`background` …) have been sent.
    public var onInputAfterLaunchSent: (@Sendable () -> Void)?
    /// Files removed just before each spawn: the app's saved state (`--fresh-install`).
    public var removeBeforeLaunch: [String] = []
    /// This launcher's byte limit (``maxProtocolBytes`` unless lowered, e.g. by tests).
    public var protocolByteLimit = ProcessLauncher.maxProtocolBytes
    /// This launcher's record limit (``maxProtocolRecords`` unless lowered).
    public var protocolRecordLimit = ProcessLauncher.maxProtocolRecords

    public init(executable: String, arguments: [String], environment: [String: String] = [:], timeout: Double = 60) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.timeout = timeout
    }

    /// A device tier applied from outside (`--tier` for a foreign program, `--enforce-memory`): each
    /// run in a cgroup of its own with 1/F of a CPU and the tier's memory limit (``RunThrottle``).
    public var throttle: ThrottleSpec?
    /// The mechanism every run's throttle must use (`nil`: the best available).
    public var throttleMechanism: ThrottleMechanism?
    /// How a memory-limit kill names the limit: `the iphone-1g memory budget`.
    public var memoryLimitLabel = "memory limit"

    /// Set for `launchprof exec`: a program that may not speak the protocol, whose output, exit
    /// status and CPU time are the user's, and whose launch may end when it is ready. `nil` for the
    /// built-in app.
    public var program: ProgramOptions?
    /// `--sample`: the thread the program is spawned on (perf follows only what it spawns); `nil`: this one.
    public var spawningThread: SpawningThread?

    /// Launches once; `index` numbers the run.
    public func launch(index: Int) throws(RunnerError) -> RunRecord {
        for path in removeBeforeLaunch { unlink(path) }
        // A condition that already holds would end every launch at once.
        if let readiness = program?.readiness, readiness.probe() { throw .readyBeforeLaunch(readiness) }
        var descriptors: RunDescriptors
        do {
            descriptors = try RunDescriptors(control: !inputAfterLaunch.isEmpty || !taps.isEmpty, output: program?.readsStandardOutput == true)
        } catch { throw .spawnFailed(executable: executable, reason: error.reason) }
        defer { descriptors.closeControl() }
        let command: RunCommand
        var runThrottle: RunThrottle?
        do throws(RunnerError) {
            command = try runCommand()
            // A tier applied from outside: the run's cgroup (or duty cycle), made before the spawn
            // and finished after the run, whatever happens.
            if let throttle {
                do { runThrottle = try RunThrottle.make(throttle, forcing: throttleMechanism) } catch { throw .throttleFailed(error) }
            }
        } catch {
            descriptors.closeAll()
            throw error
        }
        // A program's own cgroup, unless its throttle's v2 cgroup already holds it (the built-in app
        // starts no daemon: its process group holds it).
        let containment = program == nil || runThrottle?.mechanism == .cgroupV2 ? nil : RunContainment.Pool.shared?.acquire()
        defer { if let containment { RunContainment.Pool.shared?.release(containment) } }
        let run: SpawnedRun
        do {
            run = try onSpawningThread { () throws(RunnerError) in try spawnRun(command, &descriptors, throttle: runThrottle, containment: containment) }
        } catch {
            runThrottle?.finish()
            descriptors.closeAll()
            throw error
        }
        descriptors.closeChildEnds()
        _ = Self.becomeSubreaper
        defer { if let registration = run.registration { ChildProcessGuard.ended(registration, group: run.pid) } }
        guard run.status == 0 else {
            runThrottle?.finish()
            descriptors.closeLauncherEnds()
            throw .spawnFailed(executable: executable, reason: String(cString: strerror(run.status)))
        }
        if program?.spawner == nil { containment?.attach(run.pid) }
        let collectRun = { () throws(RunnerError) -> RunRecord in
            try collect(
                pid: run.pid, pipes: descriptors.launcherEnds, spawnReading: run.clock.monotonicNanoseconds, index: index,
                runToken: command.runToken, containment: containment, direct: run.direct,
                trace: command.trace.map { ($0, command.traceFile, run.clock) })
        }
        guard let runThrottle else { return try collectRun() }
        return try collectThrottled(run, runThrottle, token: command.runToken, containment: containment, collectRun)
    }

    /// A throttled run: the throttle told of the program's start, the run read, and a kill by the
    /// cgroup's memory limit (after the run, its group reaped) named as the device's.
    private func collectThrottled(
        _ run: SpawnedRun, _ runThrottle: RunThrottle, token: String, containment: RunContainment?,
        _ collectRun: () throws(RunnerError) -> RunRecord
    ) throws(RunnerError) -> RunRecord {
        do { try runThrottle.started(pid: run.pid, throughSpawner: run.throughSpawner) } catch {
            kill(-run.pid, SIGKILL)
            Self.killAndReapGroup(run.pid, token: token, containment: containment)
            runThrottle.finish()
            throw .throttleFailed(error)
        }
        let record: RunRecord
        do { record = try collectRun() } catch {
            if runThrottle.finish().killedOverMemoryLimit, let limit = throttle?.memoryLimit {
                throw .killedOverMemoryLimit(label: memoryLimitLabel, bytes: limit)
            }
            throw error
        }
        var marked = record
        if runThrottle.finish().killedOverMemoryLimit { marked.process?.killedOverMemoryLimit = true }
        return marked
    }

    /// What a run starts: the command line, the environment on top of this process's, the run's
    /// token, and its trace (`--trace`).
    struct RunCommand {
        var command: [String]
        /// `NAME=value` entries: this process's environment with the run's on top.
        var environment: [String]
        /// Inherited by everything the program starts: how its escaped descendants are recognised.
        var runToken: String
        var trace: TraceCapture?
        var traceFile: String?
    }

    /// The command and environment of one run, its trace file prepared (none stale).
    private func runCommand() throws(RunnerError) -> RunCommand {
        // What the program gets on top of this process's environment.
        var env = environment
        // Where the program may write the protocol (`docs/protocol.md`, the client libraries).
        env[ProgramOptions.descriptorVariable] = String(Self.protocolDescriptor)
        let runToken = EscapedProcessReaper.newToken()
        env[EscapedProcessReaper.tokenVariable] = runToken
        // `--trace`: the command and environment its format asks for, and no stale trace file.
        let trace = program?.trace
        let traceFile = trace?.runFile(in: program?.traceDirectory ?? FileIO.temporaryDirectory)
        var command = [executable] + arguments
        if let trace {
            do { try trace.prepare(runFile: traceFile) } catch { throw .traceUnreadable(error) }
            for (key, value) in trace.environment(runFile: traceFile, arguments: command) { env[key] = value }
            command = trace.arguments(command)
        }
        return RunCommand(
            command: command, environment: Self.programEnvironment(overriding: env), runToken: runToken, trace: trace, traceFile: traceFile)
    }

    /// Reads the pipes until they close or the deadline passes (or the program is ready), then
    /// reaps the process (``RunReading``).
    private func collect(
        pid: pid_t, pipes: Pipes, spawnReading: UInt64, index: Int, runToken: String, containment: RunContainment?, direct: Bool,
        trace: (capture: TraceCapture, file: String?, clock: SpawnClock)?
    ) throws(RunnerError) -> RunRecord {
        var reading = RunReading(
            launcher: self, pid: pid, pipes: pipes, spawnReading: spawnReading, index: index, runToken: runToken, containment: containment,
            direct: direct, trace: trace)
        defer { reading.close() }
        if reading.matcherMissing { throw .spawnFailed(executable: executable, reason: "no thread to test --ready-when-output") }
        try reading.readUntilEnd()
        reading.consumePartialLine()
        try reading.awaitReadyVerdict()
        return try reading.record()
    }

    /// The run of a program (`launchprof exec`): its protocol report if it sent one (complete, unless
    /// it was stopped at ready), else the whole process; the total is from the spawn to its exit or
    /// to ready (`interactive`); CPU time and exit from `wait4`.
    func programRecord(
        parser: ProtocolParser, protocolBytes: Int, ending: Ending?, endReading: UInt64,
        origin: UInt64, launcherOrigin: UInt64, index: Int, pid: pid_t, ready: Bool,
        trace: (capture: TraceCapture, file: String?, clock: SpawnClock)?, stderr: [UInt8]?
    ) throws(RunnerError) -> RunRecord {
        let spoke = protocolBytes > 0 && (parser.sawHello || parser.lineNumber > 0)
        if spoke, !ready, !parser.finished { throw .incomplete(lines: parser.lineNumber) }
        var record = spoke ? parser.run(index: index, pid: Int(pid)) : RunRecord(index: index, pid: Int(pid), total: 0, phases: [])
        // The protocol's times were taken from launchprof's reading before it started the spawner:
        // moved to the spawner's own, just before the program's spawn.
        if origin > launcherOrigin { Self.shift(&record, by: LaunchClock.seconds(origin - launcherOrigin), parser: parser) }
        if let trace { try Self.appendTrace(to: &record, trace, stderr: stderr) }
        let clock = LaunchClock(originNanoseconds: origin)
        record.total = clock.seconds(atReading: endReading)
        record.spawnReading = origin
        if ready, !record.marks.contains(where: { $0.name == AppInterface.interactiveMark }) {
            record.marks.append(MarkRecord(name: AppInterface.interactiveMark, time: record.total))
        }
        if let missing = program?.expectedPhases.first(where: { name in !record.phases.contains { $0.name == name } }) {
            throw .missingPhase(missing)
        }
        if record.peakResidentBytes == nil, ending?.usageKnown == true { record.peakResidentBytes = ending?.peak }
        if let ending, ending.usageKnown {
            record.process = ProcessRecord(
                user: ending.user, system: ending.system,
                exitStatus: ready ? nil : ending.status.map(Int.init), signal: ready ? nil : ending.signal.map(Int.init))
            // At ready the program was stopped by launchprof: what it used after ready is in them too.
            if !ready { record.process?.counters = ending.counters }
        }
        return record
    }

    /// Moves a record's protocol times `shift` seconds earlier (to a later origin); `process start`,
    /// which begins at the origin, is shortened instead.
    private static func shift(_ record: inout RunRecord, by shift: Double, parser: ProtocolParser) {
        for i in record.phases.indices {
            if i == 0, record.phases[0].name == ProtocolParser.processStartPhase, parser.mainReading != nil {
                record.phases[0].duration = max(0, record.phases[0].duration - shift)
            } else {
                record.phases[i].start -= shift
            }
        }
        for i in record.marks.indices { record.marks[i].time -= shift }
    }

    /// The trace's phases after the program's own (if it also spoke the protocol), parents renumbered.
    private static func appendTrace(
        to record: inout RunRecord, _ trace: (capture: TraceCapture, file: String?, clock: SpawnClock), stderr: [UInt8]?
    ) throws(RunnerError) {
        guard let stderr else { throw .traceCutShort(keptBytes: ProgramOptions.maximumStderrBytes) }
        let reading: TraceReading
        do { reading = try trace.capture.read(stderr: stderr, runFile: trace.file, clock: trace.clock) } catch {
            throw .traceUnreadable(error)
        }
        let offset = record.phases.count
        record.phases += reading.phases.map { phase in
            var moved = phase
            moved.parent = phase.parent.map { $0 + offset }
            return moved
        }
        record.marks += reading.marks
    }

    /// The error for a program that crashed or exited with a failing status while its report was
    /// unfinished (`cutShort`: what its last, partial line made of it, told second); `nil` when it
    /// exited with status 0.
    func endedBadly(_ ending: Ending, in phase: String?, stderr: String, cutShort: RunnerError) -> RunnerError? {
        let note = "its report ends in a partial line: \(cutShort.message(subject: "it"))"
        let details = stderr.isEmpty ? note : note + "\n" + stderr
        if let signal = ending.signal { return .crashed(signal: signal, inPhase: phase, stderr: details) }
        if let status = ending.status, status != 0 { return .exited(status: status, stderr: details) }
        return nil
    }

    /// The clocks a trace reader places the trace's times by: the spawner's readings at the spawn
    /// when it reported them (else launchprof's own), and the end of the run.
    func clock(of launcher: SpawnClock, _ report: SpawnerReport, origin: UInt64, end: UInt64) -> SpawnClock {
        SpawnClock(monotonicNanoseconds: origin, realtimeSeconds: report.spawnRealtime ?? launcher.realtimeSeconds, endMonotonicNanoseconds: end)
    }

    /// Whether `fd` has something to read (or is at its end) right now.
    static func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    func consumeLines(
        _ pending: inout [UInt8], into parser: inout ProtocolParser, records: inout Int,
        progress: inout String?
    ) throws(CoreError) {
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[start..<newline], as: UTF8.self)
            if let verb = ProtocolVerb(rawValue: String(ProtocolVerb.split(Substring(line)).verb)), verb.addsRecord {
                records += 1
                if records > protocolRecordLimit { break }
            }
            if let text = ProtocolVerb.progressStage(in: Substring(line)) {
                progress = text
                onProgress?(text)
            }
            try parser.consume(Substring(line))
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > 1 << 20 {
            throw .protocolLine(line: parser.lineNumber + 1, reason: "a line longer than 1 MiB")
        }
    }

    /// Writes `commands` to the control socket without blocking or raising SIGPIPE (a program that does
    /// not read them, or has gone, loses them).
    static func send(_ commands: [ControlCommand], to fd: Int32) {
        let bytes = Array(commands.map { $0.line + "\n" }.joined().utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
    }

    /// Kills every process left in the program's group and reaps those that are this process's
    /// children (orphans are re-parented here, see ``becomeSubreaper``); waits at most a second.
    /// First, what is left in the launch's cgroup (``RunContainment``), when it has one. Then kills
    /// what escaped the group with `setsid()` or `setpgid()`: the orphans re-parented here that carry
    /// the run's `token`, and reaps those of them already dead (``EscapedProcessReaper``).
    static func killAndReapGroup(_ group: pid_t, token: String, containment: RunContainment? = nil) {
        // Escaped processes: the cgroup holds them all when there is one (and a session spawner,
        // launchprof's child for the whole session, would make every sweep scan /proc).
        defer { if containment == nil { EscapedProcessReaper.sweep(token: token) } }
        // Everything in the launch's cgroup at once, also what left the group and cleared its environment.
        containment?.end()
        guard kill(-group, SIGKILL) == 0 else { return }  // ESRCH: nothing left.
        let giveUp = MonotonicClock.nanoseconds() &+ 1_000_000_000
        var status: Int32 = 0
        while MonotonicClock.nanoseconds() < giveUp {
            let result = waitpid(-group, &status, WNOHANG)
            if result < 0 && errno == EINTR { continue }
            if result < 0 { return }  // ECHILD: none of the group is our child any more.
            if result == 0 { usleep(1000) }
        }
    }

    /// Makes this process the "child subreaper" of everything it launches (Linux `PR_SET_CHILD_SUBREAPER`),
    /// so a grandchild orphaned when the program exits becomes this process's child and can be reaped
    /// after it is killed, instead of staying a zombie under an init that does not reap. Done once.
    static let becomeSubreaper: Bool = {
        // prctl is variadic, which Swift does not import; on Linux it can be called through a fixed signature.
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return false }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        return prctl(36 /* PR_SET_CHILD_SUBREAPER */, 1, 0, 0, 0) == 0
    }()

    /// This process's environment as `NAME=value` entries, those named in `overrides` replaced by
    /// its values (added last). Read from `environ` at each launch without splitting every entry
    /// into a dictionary (a per-run cost of `exec`'s session).
    static func programEnvironment(overriding overrides: [String: String]) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            pointer += 1
            guard let equals = strchr(entry, Int32(UInt8(ascii: "="))) else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: entry, count: equals - entry), as: UTF8.self)
            if overrides[name] == nil { entries.append(String(cString: entry)) }
        }
        return entries + overrides.map { "\($0.key)=\($0.value)" }
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return body(pointers)
}
