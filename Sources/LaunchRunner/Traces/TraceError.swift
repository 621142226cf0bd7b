/// A trace launchprof cannot read: it names the file (or the program's standard error) and where
/// in it, when there is a where.
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The trace file's path, or ``ImportTimeReader/source`` for a trace on standard error.
    public var source: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column (in bytes) within ``line``, when known.
    public var column: Int?
    /// 1-based index of the event in a Chrome trace's event array, when the error is about one.
    public var event: Int?
    /// What is wrong, in plain words.
    public var reason: String

    public init(source: String, line: Int? = nil, column: Int? = nil, event: Int? = nil, reason: String) {
        self.source = source
        self.line = line
        self.column = column
        self.event = event
        self.reason = reason
    }

    /// `trace.json:12:5: event 3: …`, `stderr of the program:7:1: …`, `trace.json: …`.
    public var description: String {
        var text = source
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if let event { text += "event \(event): " }
        return text + reason
    }

    /// Text from a trace shown in a message: cut at `limit` characters.
    static func clip(_ text: some StringProtocol, _ limit: Int = 40) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : String(text)
    }
}
