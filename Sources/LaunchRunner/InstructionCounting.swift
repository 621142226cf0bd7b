#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchFunctions

/// Runs launches under Valgrind's Callgrind and turns the app's dumps (``CallgrindBoundaries``)
/// into each phase's instruction count, for `--metric instructions`.
///
/// Every run writes one combined output file, `callgrind.out.<pid>`, in ``outputDirectory``; it is
/// read and deleted when the run ends. The child's environment gets `SWIFT_DETERMINISTIC_HASHING=1`
/// (Swift randomises hashing per process, which moves counts by about 0.003%) and `PYTHONHASHSEED=0`
/// (Python's string hashing, likewise). ``counting(_:)`` sets a launcher up this way: `run`, `check`
/// and `exec` all go through it.
public struct InstructionCounting: Sendable {
    /// The `valgrind` executable.
    public var valgrind: String
    /// Where the runs' Callgrind files are written (a private temporary directory).
    public var outputDirectory: String
    /// The largest Callgrind file read (a launch's file with a dump per phase boundary is a few MiB).
    public static let outputLimit = 256 << 20
    /// Whether each run also gets its function profile by phase (`--functions`, ``RunRecord/functionProfile``).
    public var collectsFunctions = false
    /// The variable that tells the built-in app to issue its dumps.
    public static let metricVariable = AppInterface.metricVariable

    public init(valgrind: String, outputDirectory: String) {
        self.valgrind = valgrind
        self.outputDirectory = outputDirectory
    }

    /// Finds `valgrind` on `PATH` and makes a private output directory; `nil` with the reason when
    /// Valgrind is not installed.
    public static func prepare() -> Result<InstructionCounting, RunnerError> {
        guard let valgrind = ExecutableSearch.find("valgrind") else {
            return .failure(
                .instructionsNotCounted(
                    "--metric instructions runs the app under Valgrind's Callgrind, and valgrind is not installed: install it with `sudo apt-get install valgrind` (or `make setup`)"
                ))
        }
        let made: String
        do { made = try FileIO.makeTemporaryDirectory(in: FileIO.temporaryDirectory, prefix: "launchprof-callgrind-") } catch {
            return .failure(.instructionsNotCounted("\(error)"))
        }
        return .success(InstructionCounting(valgrind: valgrind, outputDirectory: made))
    }

    /// Removes the output directory and anything left in it.
    public func cleanUp() {
        FileIO.removeTemporaryDirectory(outputDirectory)
    }

    /// The command that runs `executable arguments…` under Callgrind. Children are traced: a wrapper
    /// that execs the program (`env`, pyenv's shims) hands over a counted process, and every process
    /// the command forks writes a file of its own (a program's total adds them up, ``attachProgram(_:launched:to:)``).
    public func command(executable: String, arguments: [String]) -> (executable: String, arguments: [String]) {
        (
            valgrind,
            [
                // No gdbserver: its FIFOs (`vgdb-pipe-*` in TMPDIR) would outlive a killed run.
                "--tool=callgrind", "--quiet", "--vgdb=no", "--trace-children=yes",
                "--combine-dumps=yes", "--dump-line=no", "--compress-strings=yes",
                "--callgrind-out-file=\(outputDirectory)/callgrind.out.%p",
                executable
            ] + arguments
        )
    }

    /// The environment the counted child needs.
    public var environment: [String: String] {
        ["SWIFT_DETERMINISTIC_HASHING": "1", "PYTHONHASHSEED": "0", Self.metricVariable: Metric.instructions.rawValue]
    }

    /// `launcher` made to run under Callgrind: a private output directory, the executable as a copy
    /// without debug information when it has some (``StrippedCopy``), the counting environment, and
    /// every run's counts read back. A program (``ProcessLauncher/program``) is spawned directly, not
    /// through the spawner, so that the process Callgrind writes the counts of is the one launched.
    public static func counting(_ launcher: ProcessLauncher) throws(RunnerError) -> ProcessLauncher {
        let counting = try prepare().get()
        let executable: String
        do { executable = try StrippedCopy.ifNeeded(launcher.executable) } catch {
            counting.cleanUp()
            throw error
        }
        let command = counting.command(executable: executable, arguments: launcher.arguments)
        var counted = launcher
        counted.executable = command.executable
        counted.arguments = command.arguments
        counted.environment = launcher.environment.merging(counting.environment) { $1 }
        counted.instructionCounting = counting
        counted.program?.spawner = nil
        return counted
    }

    /// Reads run `record`'s Callgrind file and fills in the instruction counts of its phases and
    /// its total, then deletes the run's files. For a `program` (`launchprof exec`) see
    /// ``attachProgram(_:launched:to:)``.
    public func attach(to record: inout RunRecord, program: Bool = false) throws(RunnerError) {
        guard let pid = record.pid else { throw .instructionsNotCounted("the run has no process id") }
        defer { for file in FileIO.entries(of: outputDirectory) { unlink("\(outputDirectory)/\(file)") } }
        if program {
            let outputs = try outputs()
            try Self.attachProgram(outputs, launched: pid, to: &record)
            if collectsFunctions, let reporting = Self.reportingProcess(outputs, launched: pid) {
                try attachFunctions(of: reporting, to: &record)
            }
        } else {
            try Self.attach(try read("callgrind.out.\(pid)"), to: &record)
            if collectsFunctions { try attachFunctions(of: pid, to: &record) }
        }
    }

    /// Reads the function costs of process `pid`'s Callgrind file into `record`'s function profile,
    /// each phase bounded by the dumps its count is made of (``phaseDumps(_:)``).
    private func attachFunctions(of pid: Int, to record: inout RunRecord) throws(RunnerError) {
        let profile: CallgrindProfile
        do { profile = try CallgrindFunctionReader.read(path: "\(outputDirectory)/callgrind.out.\(pid)", limit: Self.outputLimit) } catch {
            throw .instructionsNotCounted(error.description)
        }
        let program = profile.functions.first { $0.name == "main" }?.object
        record.functionProfile = RunFunctionProfile(profile, dumps: Self.phaseDumps(record.phases), programObject: program)
    }

    /// The dumps that bound each phase, as ``attach(_:to:)`` counts them: `process start` from the
    /// start of the process to the `main` dump, every other phase from its begin dump to its end dump.
    public static func phaseDumps(_ phases: [PhaseRecord]) -> [PhaseDumps?] {
        var perThread: [Int: Int] = [:]
        return phases.enumerated().map { i, phase in
            if i == 0, phase.name == ProtocolParser.processStartPhase, phase.start == 0, phase.thread == 0 {
                return PhaseDumps(begin: nil, end: mainLabel)
            }
            let index = perThread[phase.thread, default: 0]
            perThread[phase.thread] = index + 1
            return PhaseDumps(begin: "launchprof begin \(phase.thread) \(index)", end: "launchprof end \(phase.thread) \(index)")
        }
    }

    /// The process whose dumps give a program's phases: the launched one first, else the lowest pid with a `main` dump.
    static func reportingProcess(_ outputs: [Int: CallgrindOutput], launched: Int) -> Int? {
        outputs.keys.sorted { a, b in a == launched || (b != launched && a < b) }.first { outputs[$0]?.labels.contains(mainLabel) == true }
    }

    /// The Callgrind file `name` in the output directory, parsed.
    private func read(_ name: String) throws(RunnerError) -> CallgrindOutput {
        let path = "\(outputDirectory)/\(name)"
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: Self.outputLimit) } catch {
            throw .instructionsNotCounted("Callgrind wrote no output (\(error.description))")
        }
        do { return try CallgrindOutput(text: Substring(String(decoding: bytes, as: UTF8.self))) } catch {
            throw .instructionsNotCounted("\(path): \(error.description)")
        }
    }

    /// Every process's output of the run, by pid: the launched one's and those of the processes it
    /// started. An empty file (a process image replaced by `exec` before Callgrind wrote it) is skipped.
    private func outputs() throws(RunnerError) -> [Int: CallgrindOutput] {
        var outputs: [Int: CallgrindOutput] = [:]
        for name in FileIO.entries(of: outputDirectory) where name.hasPrefix("callgrind.out.") {
            guard let pid = Int(name.dropFirst("callgrind.out.".count)) else { continue }
            var info = stat()
            guard stat("\(outputDirectory)/\(name)", &info) == 0, info.st_size > 0 else { continue }
            outputs[pid] = try read(name)
        }
        return outputs
    }

    /// The dump label at the top of `main`.
    public static let mainLabel = "launchprof main"

    /// A program's counts from the outputs of the processes of its run (by pid; `launched` is the
    /// one launchprof started): the total is every instruction of all of them, the command's work
    /// to its exit (as `exec`'s time runs from the spawn to the exit: a shell's commands, a wrapper's
    /// children count too; a process's file holds the last program it exec'd). Its phases are counted from the process that made the client's
    /// dumps (the launched one first, else the lowest pid); a program without them gets the total alone.
    public static func attachProgram(_ outputs: [Int: CallgrindOutput], launched: Int, to record: inout RunRecord) throws(RunnerError) {
        guard !outputs.isEmpty else { throw .instructionsNotCounted("Callgrind wrote no output for the run") }
        var whole = 0
        for output in outputs.values {
            guard let total = output.total else { throw .instructionsNotCounted("the counts overflow") }
            let (sum, overflow) = whole.addingReportingOverflow(total)
            guard !overflow else { throw .instructionsNotCounted("the counts overflow") }
            whole = sum
        }
        if let pid = reportingProcess(outputs, launched: launched), let output = outputs[pid] {
            try attach(output, to: &record)
        }
        record.instructions = whole
    }

    /// Fills in `record`'s instruction counts from the dumps in `output`: a phase's count is the
    /// instructions between its begin and end dumps, `process start`'s everything before the
    /// `main` dump, and the total everything up to the end of the last phase that ran at launch.
    public static func attach(_ output: CallgrindOutput, to record: inout RunRecord) throws(RunnerError) {
        guard let at = output.cumulative() else { throw .instructionsNotCounted("the counts overflow") }
        guard let main = at[mainLabel] else {
            throw .instructionsNotCounted(
                "the program made no Callgrind dump at main (was it built without valgrind/callgrind.h? install valgrind, then rebuild launchprof)")
        }
        var launchEnd = main
        for (i, dumps) in phaseDumps(record.phases).enumerated() {
            let phase = record.phases[i]
            guard let dumps, let beginLabel = dumps.begin else {
                record.phases[i].instructions = main
                continue
            }
            guard let begin = at[beginLabel], let end = at[dumps.end], end >= begin else {
                let index = dumps.end.split(separator: " ").last ?? ""
                throw .instructionsNotCounted("no Callgrind dumps for phase '\(phase.name)' (thread \(phase.thread), phase \(index))")
            }
            record.phases[i].instructions = end - begin
            if !phase.afterLaunch { launchEnd = max(launchEnd, end) }
        }
        record.instructions = launchEnd
    }
}
