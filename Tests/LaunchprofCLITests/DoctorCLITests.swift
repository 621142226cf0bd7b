import Foundation
import Testing
import LaunchCore

/// `launchprof doctor` as a user runs it: the verdict first, every finding once, JSON on request.
@Suite(.serialized) struct DoctorCLITests {
    @Test func doctorPrintsTheVerdictFirstAndEveryFinding() throws {
        let outcome = try CLI.run(["doctor"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("launchprof doctor: ") == true)
        for id in ["load", "busy-processes", "cpu-frequency", "cgroups", "valgrind", "perf", "page-cache", "launch-spread", "detectable-change"] {
            #expect(lines.filter { $0.range(of: #"^\[(ok|note|warning|problem)\] "# + id + ": ", options: .regularExpression) != nil }.count == 1, "\(id)")
        }
        #expect(outcome.stdout.contains("at its budget of "))
    }

    @Test func doctorJSONIsADocumentOfFindings() throws {
        let outcome = try CLI.run(["doctor", "--format", "json", "--no-launch"])
        #expect(outcome.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: String]])
        #expect(findings.map { $0["id"] ?? "" } == ["load", "busy-processes", "cpu-frequency", "cpu-clock", "cgroups", "valgrind", "perf", "page-cache"])
        #expect(findings.allSatisfy { ["ok", "note", "warning", "problem"].contains($0["status"] ?? "") && $0["advice"] != nil })
        #expect((document["verdict"] as? String)?.hasPrefix("launchprof doctor: ") == true)
        #expect(try CLI.run(["doctor", "--format", "xml"]).status == 2)
    }

    @Test func aBadTierIsRefusedBeforeAnythingIsLaunched() throws {
        for name in ["nope", "", "a\nb<x>"] {
            let outcome = try CLI.run(["doctor", "--tier", name])
            #expect(outcome.status == 2, "\(name)")
            #expect(outcome.stdout.isEmpty, "no report for a refused tier: \(outcome.stdout)")
            #expect(outcome.stderr.contains("unknown tier '\(name.replacingOccurrences(of: "\n", with: "\\n"))'"), "\(outcome.stderr)")
        }
        let both = try CLI.run(["doctor", "--tier", "iphone-3gs", "--no-launch"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("cannot go with --no-launch"))
    }
}
