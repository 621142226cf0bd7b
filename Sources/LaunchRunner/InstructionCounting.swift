#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Runs launches under Valgrind's Callgrind and turns the app's dumps (``CallgrindBoundaries``)
/// into each phase's instruction count, for `--metric instructions`.
///
/// Every run writes one combined output file, `callgrind.out.<pid>`, in ``outputDirectory``; it is
/// read and deleted when the run ends. The child's environment gets `SWIFT_DETERMINISTIC_HASHING=1`
/// (Swift randomises hashing per process, which moves counts by about 0.003%).
public struct InstructionCounting: Sendable {
    /// The `valgrind` executable.
    public var valgrind: String
    /// Where the runs' Callgrind files are written (a private temporary directory).
    public var outputDirectory: String
    /// The largest Callgrind file read (a launch's file with a dump per phase boundary is a few MiB).
    public static let outputLimit = 256 << 20
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

    /// The command that runs `executable arguments…` under Callgrind.
    public func command(executable: String, arguments: [String]) -> (executable: String, arguments: [String]) {
        (
            valgrind,
            [
                // No gdbserver: its FIFOs (`vgdb-pipe-*` in TMPDIR) would outlive a killed run.
                "--tool=callgrind", "--quiet", "--vgdb=no",
                "--combine-dumps=yes", "--dump-line=no", "--compress-strings=yes",
                "--callgrind-out-file=\(outputDirectory)/callgrind.out.%p",
                executable
            ] + arguments
        )
    }

    /// The environment the counted child needs.
    public var environment: [String: String] {
        ["SWIFT_DETERMINISTIC_HASHING": "1", Self.metricVariable: Metric.instructions.rawValue]
    }

    /// Reads run `record`'s Callgrind file and fills in the instruction counts of its phases and
    /// its total, then deletes the file.
    public func attach(to record: inout RunRecord) throws(RunnerError) {
        guard let pid = record.pid else { throw .instructionsNotCounted("the run has no process id") }
        let path = "\(outputDirectory)/callgrind.out.\(pid)"
        defer { unlink(path) }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: Self.outputLimit) } catch {
            throw .instructionsNotCounted("Callgrind wrote no output (\(error.description))")
        }
        let output: CallgrindOutput
        do { output = try CallgrindOutput(text: Substring(String(decoding: bytes, as: UTF8.self))) } catch {
            throw .instructionsNotCounted("\(path): \(error.description)")
        }
        try Self.attach(output, to: &record)
    }

    /// Fills in `record`'s instruction counts from the dumps in `output`: a phase's count is the
    /// instructions between its begin and end dumps, `process start`'s everything before the
    /// `main` dump, and the total everything up to the end of the last phase that ran at launch.
    public static func attach(_ output: CallgrindOutput, to record: inout RunRecord) throws(RunnerError) {
        guard let at = output.cumulative() else { throw .instructionsNotCounted("the counts overflow") }
        guard let main = at["launchprof main"] else {
            throw .instructionsNotCounted(
                "the program made no Callgrind dump at main (was it built without valgrind/callgrind.h? install valgrind, then rebuild launchprof)")
        }
        var perThread: [Int: Int] = [:]
        var launchEnd = main
        for i in record.phases.indices {
            let phase = record.phases[i]
            if i == 0, phase.name == ProtocolParser.processStartPhase, phase.start == 0, phase.thread == 0 {
                record.phases[i].instructions = main
                continue
            }
            let index = perThread[phase.thread, default: 0]
            perThread[phase.thread] = index + 1
            guard let begin = at["launchprof begin \(phase.thread) \(index)"],
                let end = at["launchprof end \(phase.thread) \(index)"], end >= begin
            else {
                throw .instructionsNotCounted("no Callgrind dumps for phase '\(phase.name)' (thread \(phase.thread), phase \(index))")
            }
            record.phases[i].instructions = end - begin
            if !phase.afterLaunch { launchEnd = max(launchEnd, end) }
        }
        record.instructions = launchEnd
    }
}
