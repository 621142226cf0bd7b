/// A startup trace that programs already write, which launchprof can turn into phases
/// (`launchprof exec --trace FORMAT`, docs/traces.md).
public enum TraceFormat: String, CaseIterable, Sendable {
    /// CPython's import times (`-X importtime`, `PYTHONPROFILEIMPORTTIME`), printed on standard error:
    /// one nested phase per imported module.
    case pythonImporttime = "python-importtime"
    /// Git's Trace2 event target (`GIT_TRACE2_EVENT`), JSON lines written to a file: one nested phase
    /// per region, per thread, and one per child process.
    case gitTrace2 = "git-trace2"
    /// A Chrome trace (Trace Event Format JSON) the program writes to the file named by `--trace-file`:
    /// complete (`X`) and begin/end (`B`/`E`) events become phases, instant events marks.
    case chromeTrace = "chrome-trace"

    /// One line for `--help` and messages.
    public var summary: String {
        switch self {
        case .pythonImporttime: "Python's import times (-X importtime): a phase per imported module"
        case .gitTrace2: "git's Trace2 events (GIT_TRACE2_EVENT): a phase per region and per child process"
        case .chromeTrace: "a Chrome trace JSON file the program writes (--trace-file): X and B/E events, instant events as marks"
        }
    }

    /// Whether the trace is on the program's standard error, which the launcher must then keep whole
    /// (python-importtime), rather than in a file.
    public var readsStandardError: Bool { self == .pythonImporttime }
}
