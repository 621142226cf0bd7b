/// The first word of each line a program sends in the launchprof line protocol (`docs/protocol.md`).
/// The writer and the parser both go through it, so the two cannot drift apart.
public enum ProtocolVerb: String, CaseIterable, Sendable {
    /// `launchprof <version>`, the first line.
    case greeting = "launchprof"
    case main, begin, end, stats, mark, count, deferred, launched, background, tap
    case tapLost = "tap-lost"
    case peak, done
    /// `x-progress <stage>`: the stage the built-in app has reached, for the launcher's progress bar.
    /// An extension (`x-` prefix): readers that do not know it ignore it.
    case progress = "x-progress"
    /// `x-clock <GHz>`: the core's clock a run on a device tier read while its waits spun, at which
    /// it was stretched (``ClockTries``). An extension: the run records it (``RunRecord/clockGigahertz``),
    /// and a reading outside ``ClockProbe/plausibleGigahertz`` is ignored.
    case clock = "x-clock"

    /// Lines whose verb starts with this are extensions, ignored by readers that do not know them.
    public static let extensionPrefix = "x-"

    /// The verbs the parser builds the run from, in the order its error message lists them.
    public static let recordVerbs: [ProtocolVerb] = [
        .begin, .end, .mark, .count, .stats, .deferred, .launched,
        .background, .tap, .tapLost, .peak, .main, .done
    ]

    /// Whether a line of this verb adds a record (a phase, mark, counter or deferred phase): the
    /// launcher bounds how many one run may send.
    public var addsRecord: Bool {
        switch self {
        case .begin, .mark, .count, .deferred: return true
        default: return false
        }
    }

    /// One protocol line: this verb, then `fields` separated by single spaces (names escaped by the
    /// caller with ``ProtocolWriter/escape(_:)``), without the newline.
    public func line(_ fields: String...) -> String { line(fields) }

    /// One protocol line: this verb, then `fields` separated by single spaces.
    public func line(_ fields: [String]) -> String {
        fields.isEmpty ? rawValue : rawValue + " " + fields.joined(separator: " ")
    }

    /// The first word of `line` and the rest after the first space.
    public static func split(_ line: Substring) -> (verb: Substring, rest: Substring) {
        guard let space = line.firstIndex(of: " ") else { return (line, "") }
        return (line[..<space], line[line.index(after: space)...])
    }

    /// The stage an `x-progress` line names (unescaped), or `nil` for any other line.
    public static func progressStage(in line: Substring) -> String? {
        let (verb, rest) = split(line)
        guard verb == ProtocolVerb.progress.rawValue else { return nil }
        return ProtocolParser.unescape(rest)
    }
}
