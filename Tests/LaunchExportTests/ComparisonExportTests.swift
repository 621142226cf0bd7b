import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LaunchExport
@testable import LaunchResults
import LaunchCore
import LaunchprofTestSupport
import LaunchStats

@Suite(.temporaryDirectory) struct ComparisonExportTests {
    func results() -> (LaunchResult, LaunchResult) {
        func result(_ phases: [(String, [Double])]) -> LaunchResult {
            let runs = (0..<10).map { i -> RunRecord in
                var start = 0.0
                var records: [PhaseRecord] = []
                for (name, values) in phases {
                    records.append(PhaseRecord(name: name, start: start, duration: values[i]))
                    start += values[i]
                }
                return RunRecord(index: i + 1, total: start, phases: records)
            }
            return LaunchResult(date: "", manifest: ManifestInfo(name: "default", path: "m", sha256: ""), host: SampleResult.host, runs: runs)
        }
        func around(_ c: Double) -> [Double] { (0..<10).map { c + (Double($0) - 4.5) * 0.0001 } }
        let a = result([("Init", around(0.100)), ("drawing", around(0.200)), ("old", around(0.010))])
        let b = result([("Init", around(0.100)), ("drawing", around(0.220)), ("new", around(0.005))])
        return (a, b)
    }

    var comparison: Comparison { let (a, b) = results(); return Comparison(baseline: a, candidate: b) }
    let context = ComparisonContext(
        baselineLabel: "main", candidateLabel: "pr", precision: 3,
        violations: [Budget.Violation(phase: "Total launch time", tier: "host", time: 0.3252, budget: 0.3)])

    @Test func textTableRowsExactly() {
        let text = ComparisonTextTable().render(comparison, context: ComparisonContext(baselineLabel: "main", candidateLabel: "pr"))
        #expect(
            text == """
                phase                 main       pr    change       %  verdict
                Init                100 ms   100 ms      +0 s   +0.0%  within noise: +0.0% (+0 s, 99% CI −0.4%…+0.4%): the whole interval inside ±5% (--threshold), any change is smaller
                drawing             200 ms   220 ms  +20.0 ms  +10.0%  slower: +10.0% (+20.0 ms, 99% CI +9.8%…+10.2%), over the 5% threshold (--threshold); confidence 99.99%
                new                      -  5.00 ms         -       -  added
                old                10.0 ms        -         -       -  removed
                Total launch time   310 ms   325 ms  +15.0 ms   +4.8%  within noise: +4.8% (+15.0 ms, 99% CI +4.5%…+5.2%) is real, its median under the 5% threshold (--threshold) though the interval reaches past it: not a regression

                """)
    }

    @Test func markdownTableAndSummary() {
        let text = ComparisonMarkdown().render(comparison, context: context)
        #expect(
            text.hasPrefix(
                "### launchprof: main → pr\n\n- :x: regression in 'drawing': median 200 ms → 220 ms (+20.0 ms, +10.0%), over the 5% threshold (--threshold), confidence 99.99%\n- :x: over budget: 'Total launch time' on host took 325 ms, budget 300 ms\n\n"
            ))
        #expect(text.contains("| Phase | main | pr | Change | % | Verdict |\n|---|---:|---:|---:|---:|---|\n"))
        #expect(
            text.contains(
                "| drawing | 200 ms | 220 ms | +20.0 ms | +10.0% | slower: +10.0% (+20.0 ms, 99% CI +9.8%…+10.2%), over the 5% threshold (--threshold); confidence 99.99% |\n"
            ))
        #expect(
            text.hasSuffix(
                "| **Total launch time** | 310 ms | 325 ms | +15.0 ms | +4.8% | within noise: +4.8% (+15.0 ms, 99% CI +4.5%…+5.2%) is real, its median under the 5% threshold (--threshold) though the interval reaches past it: not a regression |\n"
            ))
    }

    @Test func githubAnnotationsEscapeTheirFields() {
        let text = GitHubAnnotations().render(comparison, context: context)
        #expect(
            text == """
                ::error title=Launch regression%3A drawing::'drawing': median 200 ms → 220 ms (+20.0 ms, +10.0%25), over the 5%25 threshold (--threshold), confidence 99.99%25
                ::error title=Launch budget%3A Total launch time::'Total launch time' on host took 325 ms, budget 300 ms

                """)
    }

    @Test func junitParsesBackAsXMLWithOneCasePerPhase() throws {
        let xml = JUnitReport().render(comparison, context: context)
        final class Collector: NSObject, XMLParserDelegate {
            var cases: [String] = []
            var failures: [String] = []
            var suiteFailures = ""
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
                if name == "testcase" { cases.append(attributes["name"] ?? "") }
                if name == "failure" { failures.append(attributes["message"] ?? "") }
                if name == "testsuite" { suiteFailures = attributes["failures"] ?? "" }
            }
        }
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.cases == ["Init", "drawing", "new", "old", "Total launch time"])
        #expect(collector.suiteFailures == "2")
        #expect(collector.failures.count == 2)
        #expect(collector.failures[0].hasPrefix("regression in 'drawing'"))
        #expect(collector.failures[1] == "over budget: 'Total launch time' on host took 325 ms, budget 300 ms")
    }

    @Test func jsonParsesBack() throws {
        let text = try ComparisonJSON().render(comparison, context: context)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["baseline"] as? String == "main")
        #expect(object["regressions"] as? [String] == ["drawing"])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.map { $0["verdict"] as? String } == ["within noise", "slower", "added", "removed"])
        #expect((object["overBudget"] as? [[String: Any]])?.first?["tier"] as? String == "host")
    }

    @Test func storeNamesResultsByCommitTierAndManifest() throws {
        #expect(ResultStore.fileName(commit: "abc", tier: nil, manifest: "default", dirty: false) == "abc.json")
        #expect(ResultStore.fileName(commit: "abc", tier: "host", manifest: "default", dirty: false) == "abc.json")
        #expect(ResultStore.fileName(commit: "abc", tier: "iphone-3gs", manifest: "heavy", dirty: true) == "abc-iphone-3gs-heavy-dirty.json")
        let directory = TemporaryDirectory.path("store")
        let store = ResultStore(directory: directory)
        var (a, _) = results()
        a.git = GitInfo(commit: "1111111111111111111111111111111111111111", branch: "main", dirty: false)
        let path = try store.save(a)
        #expect(path == "\(directory)/1111111111111111111111111111111111111111.json")
        let resolve: (String) -> String? = { $0 == "main" || $0 == "1111111" ? "1111111111111111111111111111111111111111" : nil }
        #expect(try store.locate("main", tier: nil, manifest: "default", resolveRevision: resolve) == path)
        #expect(try store.locate(path, tier: nil, manifest: "default", resolveRevision: resolve) == path)
        do {
            _ = try store.locate("main", tier: "iphone-3gs", manifest: "default", resolveRevision: resolve)
            Issue.record("a missing tier result must fail")
        } catch {
            // Typed: the reference, its commit and where it was looked for, as facts.
            guard case .notStored(let reference, let commit, let searched, _) = error else { Issue.record("\(error)"); return }
            #expect(reference == "main" && commit == "1111111111111111111111111111111111111111")
            #expect(searched == ": expected \(directory)/1111111111111111111111111111111111111111-iphone-3gs.json")
            #expect(error.description.contains("no stored result for main (commit 111111111111)"))
        }
        #expect(throws: ResultError.notFileOrRevision(reference: "nope")) {
            try store.locate("nope", tier: nil, manifest: "default", resolveRevision: resolve)
        }
        // A dirty result is found when no clean one exists.
        a.git = GitInfo(commit: "2222222222222222222222222222222222222222", branch: "main", dirty: true)
        let dirty = try store.save(a)
        #expect(try store.locate("x", tier: nil, manifest: "default", resolveRevision: { _ in "2222222222222222222222222222222222222222" }) == dirty)
    }
}
