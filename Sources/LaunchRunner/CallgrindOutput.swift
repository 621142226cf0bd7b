/// The parts of a Callgrind output file written with `--combine-dumps=yes`: one per dump, each
/// with what triggered it and the instructions (`Ir`) executed since the previous dump.
public struct CallgrindOutput: Equatable, Sendable {
    /// One dump.
    public struct Part: Equatable, Sendable {
        /// The client request's label (`launchprof begin 0 3`), or `nil` for another trigger
        /// (program termination).
        public var label: String?
        /// Instructions executed since the previous dump.
        public var instructions: Int
    }

    public var parts: [Part]

    /// Parses the text of a combined Callgrind output file. Only `part:`, `desc: Trigger:`,
    /// `events:` and `summary:` lines matter; the per-function costs are skipped.
    ///
    /// - Throws: ``RunnerError/callgrindFormat(line:reason:)`` for a file that is not what Callgrind writes.
    public init(text: Substring) throws(RunnerError) {
        var parts: [Part] = []
        var label: String?
        var inPart = false
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let first = line.first, first == "p" || first == "d" || first == "e" || first == "s" else { continue }
            if line.hasPrefix("part:") {
                inPart = true
                label = nil
            } else if line.hasPrefix("desc: Trigger: ") {
                let trigger = line.dropFirst("desc: Trigger: ".count)
                let request = "Client Request: "
                label = trigger.hasPrefix(request) ? String(trigger.dropFirst(request.count)) : nil
            } else if line.hasPrefix("events:") {
                let events = line.dropFirst("events:".count).split(separator: " ")
                guard events.first == "Ir" else {
                    throw .callgrindFormat(line: lineNumber, reason: "the first event is '\(events.first ?? "")', not Ir")
                }
            } else if line.hasPrefix("summary:") {
                guard inPart || parts.isEmpty else { throw .callgrindFormat(line: lineNumber, reason: "a summary outside a part") }
                let fields = line.dropFirst("summary:".count).split(separator: " ")
                guard let text = fields.first, let count = Int(text), count >= 0 else {
                    throw .callgrindFormat(line: lineNumber, reason: "the summary is not a count of instructions")
                }
                parts.append(Part(label: label, instructions: count))
                inPart = false
                label = nil
            }
        }
        guard !parts.isEmpty else { throw .callgrindFormat(line: lineNumber, reason: "no summary: not a Callgrind output file") }
        self.parts = parts
    }

    /// Every instruction the process executed: the sum of the dumps (`nil` if it overflows).
    public var total: Int? {
        var total = 0
        for part in parts {
            let (sum, overflow) = total.addingReportingOverflow(part.instructions)
            guard !overflow else { return nil }
            total = sum
        }
        return total
    }

    /// The labels of the client requests' dumps.
    public var labels: Set<String> { Set(parts.compactMap(\.label)) }

    /// The instructions executed from the start of the process to each labelled dump. When a
    /// label appears twice, the first dump counts. Fails (`nil`) if the total overflows.
    public func cumulative() -> [String: Int]? {
        var sums: [String: Int] = [:]
        var total = 0
        for part in parts {
            let (sum, overflow) = total.addingReportingOverflow(part.instructions)
            guard !overflow else { return nil }
            total = sum
            if let label = part.label, sums[label] == nil { sums[label] = total }
        }
        return sums
    }
}
