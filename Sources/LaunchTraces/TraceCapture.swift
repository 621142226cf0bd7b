#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// What `--trace FORMAT` needs from the launcher for each run, and how the run's trace becomes
/// phases after it (docs/traces.md):
///
/// ```swift
/// let capture = try TraceCapture(format: .gitTrace2, traceFile: nil)
/// let runFile = capture.runFile(in: temporaryDirectory)      // per run; nil for python-importtime
/// try capture.prepare(runFile: runFile)                      // before the spawn: no stale trace
/// let argv = capture.arguments(command)
/// let environment = capture.environment(runFile: runFile, arguments: command)
/// // … spawn argv with environment, keep its whole stderr, read the clocks …
/// let reading = try capture.read(stderr: stderr, runFile: runFile, clock: clock)
/// ```
public struct TraceCapture: Equatable, Sendable {
    public let format: TraceFormat
    /// The file the program writes its trace to: `--trace-file`, required for chrome-trace, optional
    /// for git-trace2 (made absolute: git takes only absolute paths), refused for python-importtime.
    public let traceFile: String?

    /// The environment variable that tells a program where to write its Chrome trace (chrome-trace).
    public static let traceFileVariable = "LAUNCHPROF_TRACE_FILE"
    /// The nesting git writes regions to (`GIT_TRACE2_EVENT_NESTING`): all that phases can hold.
    static let gitNesting = TraceLimits.depth

    /// - Throws: ``TraceError/fileRequired(_:)`` for chrome-trace without a trace file,
    ///   ``TraceError/fileNotApplicable(_:)`` for python-importtime with one, or
    ///   ``TraceError/fileEmpty`` for an empty path.
    public init(format: TraceFormat, traceFile: String?) throws(TraceError) {
        if traceFile?.isEmpty == true { throw .fileEmpty }
        switch format {
        case .chromeTrace:
            guard traceFile != nil else { throw .fileRequired(format) }
        case .pythonImporttime:
            guard traceFile == nil else { throw .fileNotApplicable(format) }
        case .gitTrace2:
            break
        }
        self.format = format
        self.traceFile = format == .gitTrace2 ? traceFile.map(Self.absolute) : traceFile
    }

    /// Where a run's trace is written: the trace file, or for git-trace2 without one a file in
    /// `directory` (the launcher's temporary directory); `nil` for python-importtime.
    public func runFile(in directory: String) -> String? {
        switch format {
        case .pythonImporttime: nil
        case .chromeTrace: traceFile
        case .gitTrace2: traceFile ?? Self.absolute(directory.hasSuffix("/") ? directory + "trace2-events.json" : directory + "/trace2-events.json")
        }
    }

    /// Call before each spawn: removes the previous run's trace at `runFile`, so that a run that
    /// writes none fails instead of being credited with an old one (git appends to its file).
    ///
    /// - Throws: ``TraceError/malformed(source:line:column:event:reason:)`` when `runFile` is a directory, FIFO, device or socket (the program
    ///   could not write a trace there that launchprof reads), or cannot be removed.
    public func prepare(runFile: String?) throws(TraceError) {
        guard let runFile else { return }
        var info = stat()
        guard lstat(runFile, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard unlink(runFile) == 0 || errno == ENOENT else {
                throw .malformed(source: runFile, reason: "cannot remove the previous run's trace: \(String(cString: strerror(errno)))")
            }
        case S_IFLNK:
            break  // The user's link stays; what it points to is checked when it is read.
        default:
            throw .malformed(source: runFile, reason: "is not a regular file: the program's trace must go to a regular file")
        }
    }

    /// The command to spawn: for python-importtime, `-X importtime` after the interpreter when
    /// `argv[0]` is one (`python3`, `python3.12`, `/usr/bin/python`); otherwise `argv` unchanged.
    public func arguments(_ argv: [String]) -> [String] {
        guard format == .pythonImporttime, Self.isPythonInterpreter(argv), !Self.givesImportTimeOption(argv) else { return argv }
        return [argv[0], "-X", "importtime"] + argv.dropFirst()
    }

    /// The variables to add to the environment of a run of `argv` (the command as the user gave it).
    ///
    /// - python-importtime: `PYTHONPROFILEIMPORTTIME=1` unless ``arguments(_:)`` passes
    ///   `-X importtime` (a script with a `#!` line, a tool installed as a command, a shell): child
    ///   Python processes inherit the variable, and their lines cannot be told from the program's.
    /// - git-trace2: `GIT_TRACE2_EVENT=<runFile>`, `GIT_TRACE2_EVENT_NESTING=256` (git's default, 2,
    ///   would drop deeper regions) and `GIT_TRACE2_EVENT_BRIEF=false` (brief events have no times).
    /// - chrome-trace: `LAUNCHPROF_TRACE_FILE=<runFile>`, for programs that take their trace file
    ///   from the environment.
    public func environment(runFile: String?, arguments argv: [String]) -> [String: String] {
        switch format {
        case .pythonImporttime:
            return Self.isPythonInterpreter(argv) ? [:] : ["PYTHONPROFILEIMPORTTIME": "1"]
        case .gitTrace2:
            guard let runFile else { return [:] }
            return [
                "GIT_TRACE2_EVENT": runFile, "GIT_TRACE2_EVENT_NESTING": String(Self.gitNesting),
                "GIT_TRACE2_EVENT_BRIEF": "false"
            ]
        case .chromeTrace:
            return runFile.map { [Self.traceFileVariable: $0] } ?? [:]
        }
    }

    /// After the run: its phases (nested, in seconds since the spawn, within the run), marks, and
    /// `stderr` without the trace's own lines. `runFile` is the one given to ``environment(runFile:arguments:)``.
    ///
    /// - Throws: ``TraceError/malformed(source:line:column:event:reason:)`` naming the trace file (or ``ImportTimeReader/source``), and the line and
    ///   column or event: no trace written, a file that is not a regular file or over
    ///   ``TraceLimits/fileBytes``, malformed content, or a limit (docs/limits.md).
    public func read(stderr: [UInt8], runFile: String?, clock: SpawnClock) throws(TraceError) -> TraceReading {
        if format == .pythonImporttime { return try ImportTimeReader.read(stderr: stderr, clock: clock) }
        guard let runFile else {
            throw .malformed(source: format.rawValue, reason: "no trace file was given for the run")
        }
        var info = stat()
        guard stat(runFile, &info) == 0 || errno != ENOENT else {
            throw .malformed(
                source: runFile,
                reason: format == .gitTrace2
                    ? "git wrote no Trace2 events: the file does not exist (did the program run git, 2.22 or later?)"
                    : "the program wrote no trace: the file does not exist (does the program write its Chrome trace to the file given with --trace-file?)")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(runFile, limit: .trace)
        } catch {
            throw .malformed(source: runFile, reason: error.reason)
        }
        var reading: TraceReading
        switch format {
        case .gitTrace2:
            reading = try Trace2Reader.read(bytes, file: runFile, clock: clock)
        default:
            guard !bytes.starts(with: [0x1F, 0x8B]) else {
                throw .malformed(source: runFile, reason: "is compressed with gzip: launchprof reads a Chrome trace as plain JSON")
            }
            reading = try ChromeTraceReader.read(bytes, file: runFile, clock: clock)
        }
        reading.stderr = stderr
        return reading
    }

    /// Whether `argv[0]` names a CPython interpreter: `python`, `python3`, `python3.12`, `python3.13t`.
    static func isPythonInterpreter(_ argv: [String]) -> Bool {
        guard let program = argv.first?.split(separator: "/").last, program.hasPrefix("python") else { return false }
        var version = program.dropFirst("python".count)
        if let last = version.last, "dmt".contains(last), version.count > 1 { version.removeLast() }
        return version.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }

    /// Whether `-X importtime` (or `-Ximporttime`) is in `argv` already.
    static func givesImportTimeOption(_ argv: [String]) -> Bool {
        zip(argv, argv.dropFirst()).contains { $0 == "-X" && $1.hasPrefix("importtime") }
            || argv.contains { $0.hasPrefix("-Ximporttime") }
    }

    /// `path` made absolute against the current directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = FileIO.currentDirectory() else { return path }
        return FileIO.resolve(path, relativeTo: cwd)
    }
}
