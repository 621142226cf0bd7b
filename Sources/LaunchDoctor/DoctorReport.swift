import LaunchCore

/// How `doctor` prints its findings: for people (the verdict first, then each finding with what to
/// do) and as JSON (`--format json`).
public enum DoctorReport {
    /// `launchprof doctor: 1 problem, 2 warnings, 3 notes` (or `nothing in the way`).
    public static func verdict(_ findings: [Finding]) -> String {
        let counts: [(Finding.Status, String)] = [(.problem, "problem"), (.warning, "warning"), (.note, "note")]
        let parts = counts.compactMap { status, word -> String? in
            let n = findings.filter { $0.status == status }.count
            return n == 0 ? nil : "\(n) \(word)\(n == 1 ? "" : "s")"
        }
        return "launchprof doctor: " + (parts.isEmpty ? "nothing in the way of measuring here" : parts.joined(separator: ", "))
    }

    public static func text(_ findings: [Finding]) -> String {
        var out = verdict(findings) + "\n"
        for finding in findings {
            out += "[\(finding.status.rawValue)] \(finding.id): \(PlainText.oneLine(finding.summary))\n"
            if !finding.advice.isEmpty { out += "    do: \(PlainText.oneLine(finding.advice))\n" }
        }
        return out
    }

    public static func json(_ findings: [Finding]) -> String {
        var root = JSONValue.Object()
        root["verdict"] = .string(verdict(findings))
        root["findings"] = .array(
            findings.map { finding in
                var object = JSONValue.Object()
                object["id"] = .string(finding.id)
                object["status"] = .string(finding.status.rawValue)
                object["summary"] = .string(finding.summary)
                object["advice"] = .string(finding.advice)
                return .object(object)
            })
        return JSONWriter.pretty(.object(root))
    }
}
