import LaunchCore

/// One CSV row per run and phase: `run,phase,parent,thread,start,duration,rss` (seconds; rss in bytes,
/// empty when not sampled), for spreadsheets. Fields are quoted when they need it (RFC 4180).
public struct CSVExporter: ResultExporter {
    public static let formatName = "csv"

    public init() {}

    public func render(_ result: LaunchResult) -> String {
        var lines = ["run,phase,parent,thread,start,duration,rss"]
        for run in result.runs {
            for phase in run.phases {
                let parent = phase.parent.map { run.phases[$0].name } ?? ""
                lines.append([String(run.index), Self.quote(phase.name), Self.quote(parent), String(phase.thread),
                              SecondsFormat.format(phase.start, precision: 6), SecondsFormat.format(phase.duration, precision: 6),
                              phase.residentBytes.map(String.init) ?? ""].joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text`, quoted when it holds a comma, a quote or a line break (quotes doubled), per RFC 4180.
    /// Checked scalar by scalar: a CR LF pair is one Swift character equal to neither CR nor LF.
    static func quote(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" { out += "\"\"" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }
}
