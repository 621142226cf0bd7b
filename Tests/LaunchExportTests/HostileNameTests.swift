import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LaunchExport
import LaunchCore
import LaunchprofTestSupport
import LaunchStats

/// Every writer escapes for its format: names built to break each format are written, and the output
/// is read back by a real consumer (an XML parser, the protocol parser, a GFM table splitter, a CSV reader).
@Suite struct HostileNameTests {
    static let names = [
        "evil\nTime for forged: 0.000s",
        "pipe | cell | split",
        "back`tick` ``code``",
        "<script>alert(1)</script>",
        "a & b &amp; c",
        "quote \" and ' apostrophe",
        "non\u{FFFE}char\u{FFFF}acters",
        "control \u{01}\u{1B}[31m\u{7F}\u{0B}",
        "100% %0A done",
        "::error::forged, title=x",
        "crlf\r\nline",
        "comma, name",
        "back\\slash\\|",
        "tab\there"
    ]

    /// One run per index, phases named by ``names``, each `scale` times as long as in the baseline.
    static func result(runs: Int = 1, scale: Double = 1) -> LaunchResult {
        let runRecords = (0..<runs).map { i -> RunRecord in
            var start = 0.0
            var phases: [PhaseRecord] = []
            for name in names {
                let duration = (0.010 + Double(i) * 0.00001) * scale
                phases.append(PhaseRecord(name: name, kind: .cpu, start: start, duration: duration))
                start += duration
            }
            return RunRecord(
                index: i + 1, pid: 100 + i, total: start, phases: phases,
                marks: [MarkRecord(name: names[3], time: start)],
                counters: [CounterRecord(name: names[0], value: 3)], deferred: [names[1], names[6]])
        }
        return LaunchResult(
            date: "2026-11-22T07:00:00Z",
            manifest: ManifestInfo(name: names[3], path: names[0], sha256: "abc"),
            host: SampleResult.host, runs: runRecords)
    }

    static var comparison: Comparison {
        Comparison(baseline: result(runs: 10), candidate: result(runs: 10, scale: 1.2))
    }

    static let context = ComparisonContext(
        baselineLabel: "main|<b>", candidateLabel: "pr\n::error::x", precision: 3,
        violations: [Budget.Violation(phase: names[9], tier: "host", time: 0.3, budget: 0.2)])

    /// `text` split at line feeds (bytes, not characters: a CR LF pair is one Swift character).
    func lines(_ text: String) -> [String] {
        text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    func hasRawCarriageReturn(_ text: String) -> Bool { text.utf8.contains(0x0D) }

    // MARK: XML

    final class XMLCollector: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var attributes: [[String: String]] = []
        var text = ""
        var error: Error?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            elements.append(name)
            self.attributes.append(attributes)
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
    }

    func parseXML(_ xml: String) -> XMLCollector {
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = XMLCollector()
        parser.delegate = collector
        #expect(parser.parse(), "not well-formed: \(String(describing: collector.error))")
        #expect(collector.error == nil)
        return collector
    }

    @Test func xmlEscapeKeepsOnlyXMLCharacters() {
        let escaped = XMLText.escape("a\u{FFFE}b\u{FFFF}c\u{01}d\u{1F}e<&>\"'\t\n\r")
        #expect(escaped == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e&lt;&amp;&gt;&quot;&apos;&#9;&#10;&#13;")
        #expect(!escaped.unicodeScalars.contains { !XMLText.isAllowed($0) })
    }

    @Test func svgWithHostileNamesIsWellFormedXML() throws {
        let svg = try SVGTimelineExporter().render(Self.result(runs: 3))
        #expect(!svg.unicodeScalars.contains { !XMLText.isAllowed($0) })
        let xml = parseXML(svg)
        #expect(!xml.elements.contains("script"))
        #expect(xml.text.contains("<script>alert(1)</script>"))  // As text, not markup.
        #expect(xml.text.contains("a & b &amp; c"))
        #expect(xml.text.contains("quote \" and ' apostrophe"))
    }

    @Test func junitWithHostileNamesIsWellFormedXMLAndKeepsTheNames() {
        let xml = parseXML(JUnitReport().render(Self.comparison, context: Self.context))
        let caseNames = zip(xml.elements, xml.attributes).filter { $0.0 == "testcase" }.compactMap { $0.1["name"] }
        #expect(caseNames.count == Self.names.count + 2)  // Every phase, the hostile mark, the total.
        for name in Self.names where name.unicodeScalars.allSatisfy({ XMLText.isAllowed($0) }) {
            #expect(caseNames.contains(name), "testcase for \(name.debugDescription)")
        }
        #expect(caseNames.contains("non\u{FFFD}char\u{FFFD}acters"))
        #expect(!xml.elements.contains("script"))
        #expect(zip(xml.elements, xml.attributes).filter { $0.0 == "failure" }.count == Self.names.count + 2)
    }

    // MARK: Markdown

    /// The cells of a GFM table row, split as cmark-gfm does: at pipes not escaped by a backslash.
    func cells(_ row: String) -> [String] {
        var body = Substring(row.trimmingCharacters(in: .whitespaces))
        if body.hasPrefix("|") { body = body.dropFirst() }
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for c in body.unicodeScalars {
            if escaped { cell.unicodeScalars.append(c); escaped = false; continue }
            if c == "\\" { cell += "\\"; escaped = true; continue }
            if c == "|" { cells.append(cell); cell = ""; continue }
            cell.unicodeScalars.append(c)
        }
        if !cell.trimmingCharacters(in: .whitespaces).isEmpty { cells.append(cell) }
        return cells
    }

    func checkMarkdown(_ text: String, tableRows: Int) {
        #expect(!hasRawCarriageReturn(text))
        #expect(!text.contains("<script"))
        #expect(!text.contains("<b>"))
        let all = lines(text)
        let table = all.filter { $0.hasPrefix("|") }
        #expect(table.count == tableRows + 2)
        let width = cells(table[0]).count
        for row in table { #expect(cells(row).count == width, "row \(row.debugDescription)") }
        // Every line is part of the table, a heading, a list item or blank: no name starts a line of its own.
        for line in all {
            #expect(line.isEmpty || line.hasPrefix("|") || line.hasPrefix("### ") || line.hasPrefix("- :x: "), "forged line \(line.debugDescription)")
        }
        // Backticks appear only escaped.
        for (i, c) in text.unicodeScalars.enumerated() where c == "`" {
            let previous = text.unicodeScalars[text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: i - 1)]
            #expect(previous == "\\")
        }
    }

    @Test func markdownSummaryKeepsEveryRowInItsCells() {
        let text = MarkdownSummaryExporter().render(Self.result(runs: 3))
        checkMarkdown(text, tableRows: Self.names.count + 2 + 1 + 1)  // Phases, two deferred, the total, the mark.
    }

    @Test func comparisonMarkdownKeepsEveryRowInItsCells() {
        let text = ComparisonMarkdown().render(Self.comparison, context: Self.context)
        checkMarkdown(text, tableRows: Self.names.count + 2)
        #expect(text.contains("- :x: regression in"))
    }

    // MARK: GitHub workflow commands

    @Test func githubAnnotationsStayOneCommandPerLine() {
        let text = GitHubAnnotations().render(Self.comparison, context: Self.context)
        #expect(!hasRawCarriageReturn(text))
        let commands = lines(text).filter { !$0.isEmpty }
        #expect(commands.count == Self.names.count + 3)  // Every phase, the mark and the total regress; one budget.
        for command in commands {
            #expect(command.hasPrefix("::error title="))
            let rest = command.dropFirst("::error title=".count)
            guard let separator = rest.range(of: "::") else {
                Issue.record("no message separator in \(command.debugDescription)")
                continue
            }
            let title = rest[..<separator.lowerBound]
            #expect(!title.contains(":") && !title.contains(","), "unescaped property \(title)")
            let decoded = String(title).removingPercentEncoding ?? ""
            #expect(decoded.hasPrefix("Launch regression: ") || decoded.hasPrefix("Launch budget: "))
        }
        let titles = commands.compactMap { $0.dropFirst("::error title=".count).components(separatedBy: "::").first?.removingPercentEncoding }
        for name in Self.names { #expect(titles.contains("Launch regression: " + name), "title for \(name.debugDescription)") }
        #expect(titles.contains("Launch budget: " + Self.names[9]))
    }

    // MARK: CSV

    /// The records of RFC 4180 `text`, field by field.
    func readCSV(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        while let c = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    let next = scalars.next()
                    if next == "\"" { field += "\"" } else { quoted = false; pending = next }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                record.append(field); field = ""
            } else if c == "\n" {
                record.append(field); field = ""
                records.append(record); record = []
            } else if c == "\r" {
                continue
            } else {
                field.unicodeScalars.append(c)
            }
        }
        #expect(!quoted, "unterminated quoted field")
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }

    @Test func csvReadsBackFieldByField() {
        let records = readCSV(CSVExporter().render(Self.result(runs: 2)))
        #expect(records.count == 1 + 2 * (Self.names.count + 1))
        for record in records { #expect(record.count == 7, "record \(record)") }
        let perRun = Self.names + ["Time to " + Self.names[3]]
        #expect(records.dropFirst().map { $0[1] } == perRun + perRun)
    }

    // MARK: Text report

    @Test func textReportHasOneLinePerPhase() {
        let text = TextReportExporter().render(Self.result(runs: 1))
        #expect(!hasRawCarriageReturn(text))
        let reportLines = lines(text).filter { !$0.isEmpty }
        // Where the time goes: a title and the 5 largest phases, each on its own line too.
        let ranking = 1 + TextReportExporter.rankedPhases
        #expect(reportLines.count == Self.names.count + 2 + 1 + 1 + ranking)
        #expect(reportLines.first == "Where the time goes (self time, share of the launch):")
        for line in reportLines.dropFirst(ranking) {
            #expect(line.hasPrefix("Time for ") || line.hasPrefix("Total launch time: ") || line.hasPrefix("Time to "), "forged line \(line.debugDescription)")
        }
        for line in reportLines.dropFirst().prefix(ranking - 1) {
            #expect(line.hasPrefix("    7%  10.0 ms  "), "forged line \(line.debugDescription)")
        }
        #expect(reportLines.filter { $0.hasPrefix("Time for forged") }.isEmpty)
        #expect(text.contains("Time for evil\\nTime for forged: 0.000s: "))
        #expect(!lines(TextReportExporter().header(Self.result())).contains { $0.hasPrefix("Time for") })
        #expect(lines(TextReportExporter().countersLine(Self.result()) ?? "").count == 1)
    }

    @Test func plainTextEscapesEveryControl() {
        #expect(PlainText.oneLine("a\nb\rc\td\\e\u{1B}f\u{85}g\u{2028}") == "a\\nb\\rc\\td\\\\e\\u{1b}f\\u{85}g\\u{2028}")
        #expect(PlainText.oneLine("plain name") == "plain name")
    }

    // MARK: Protocol

    @Test func protocolLinesCarryHostileNamesIntact() throws {
        var text = ProtocolWriter.greeting(mainReading: 1_000).joined(separator: "\n") + "\n"
        var t: UInt64 = 2_000
        for name in Self.names {
            text += "x-progress \(ProtocolWriter.escape(name))\n"  // As the built-in app reports a stage.
            text += "begin \(t) 0 cpu \(ProtocolWriter.escape(name))\nend \(t + 500) 0 \(ProtocolWriter.escape(name))\n"
            text += "mark \(t + 100) 0 \(ProtocolWriter.escape(name))\n"
            t += 1_000
        }
        text += "done \(t)\n"
        var parser = ProtocolParser(spawnReading: 500)
        for line in lines(text) { try parser.consume(Substring(line)) }
        #expect(parser.finished)
        let run = parser.run(index: 1, pid: nil)
        #expect(run.phases.map(\.name) == [ProtocolParser.processStartPhase] + Self.names)
        #expect(run.marks.map(\.name) == Self.names)
        #expect(lines(text).filter { $0.hasPrefix("x-progress ") }.count == Self.names.count)
    }
}

extension HostileNameTests {
    @Test func textTablesKeepOneLinePerPhase() throws {
        let result = Self.result(runs: 3)
        let statistics = lines(StatisticsTable(options: ReportOptions()).render(result)).filter { !$0.isEmpty }
        #expect(!statistics.contains { $0.hasPrefix("Time for forged") || $0.hasPrefix("line") })
        let blame = lines(BlameReport(options: ReportOptions(precision: 3)).render(result)).filter { !$0.isEmpty }
        #expect(blame.count == 1 + Self.names.count)
        let critical = lines(try CriticalPathReport(options: ReportOptions(precision: 3), run: nil).render(result)).filter { !$0.isEmpty }
        #expect(!critical.contains { $0.hasPrefix("Time for forged") || $0.hasPrefix("line") })
        let table = lines(ComparisonTextTable().render(Self.comparison, context: Self.context)).filter { !$0.isEmpty }
        #expect(table.count == 1 + Self.names.count + 1 + 1 + Self.context.violations.count)
        #expect(table.last?.hasPrefix("over budget: ") == true)
        #expect(!hasRawCarriageReturn(table.joined()))
    }

    @Test func chromeTraceOfHostileNamesIsValidJSON() throws {
        var result = Self.result(runs: 2)
        result.runs[0].phases[0].duration = .infinity
        let text = try ChromeTraceExporter().render(result)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let events = try #require((object as? [String: Any])?["traceEvents"] as? [[String: Any]] ?? (object as? [[String: Any]]))
        let names = Set(events.compactMap { $0["name"] as? String })
        for name in Self.names { #expect(names.contains(name), "event for \(name.debugDescription)") }
    }
}
