/// LaunchTraces' one error: a startup trace launchprof cannot read, or a `--trace` option that
/// cannot be used. Every message is rendered here, by ``description``.
public enum TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A trace launchprof cannot read: `source` is the trace file's path (or
    /// ``ImportTimeReader/source`` for a trace on standard error), `line` and `column` (1-based,
    /// the column in bytes) and `event` (1-based index in a Chrome trace's event array) say where
    /// when known, `reason` says what is wrong.
    case malformed(source: String, line: Int? = nil, column: Int? = nil, event: Int? = nil, reason: String)
    /// `--trace-file` with an empty path.
    case fileEmpty
    /// `--trace FORMAT` (chrome-trace) without the `--trace-file` it needs.
    case fileRequired(TraceFormat)
    /// `--trace-file` with a format (python-importtime) that reads no file.
    case fileNotApplicable(TraceFormat)

    public var description: String {
        switch self {
        case .malformed(let source, let line, let column, let event, let reason):
            // `trace.json:12:5: event 3: …`, `stderr of the program:7:1: …`, `trace.json: …`.
            var text = source
            if let line {
                text += ":\(line)"
                if let column { text += ":\(column)" }
            }
            text += ": "
            if let event { text += "event \(event): " }
            return text + reason
        case .fileEmpty:
            return "--trace-file needs a path"
        case .fileRequired(let format):
            return
                "--trace \(format.rawValue) needs --trace-file FILE: the file the program writes its Chrome trace to (its path is also in $\(TraceCapture.traceFileVariable))"
        case .fileNotApplicable(let format):
            return "--trace \(format.rawValue) reads the program's standard error: --trace-file does not apply"
        }
    }

    /// Text from a trace shown in a message: cut at `limit` characters.
    static func clip(_ text: some StringProtocol, _ limit: Int = 40) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : String(text)
    }
}
