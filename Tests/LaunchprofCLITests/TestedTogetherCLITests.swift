import Foundation
import Testing
import LaunchCore
import LaunchResults

/// `diff` and `check` judge the rows of results measured on a device tier together (Holm), and
/// each row alone off a tier: the same two results, with and without a tier.
@Suite struct TestedTogetherCLITests {
    /// Eight runs of 21 phases alike on both sides and one (`slow`) 20% slower in the candidate, with
    /// five of the baseline's runs above the candidate's fastest (Mann–Whitney p = 0.0030: under 1%
    /// alone, over 1%/22 among the 22 rows).
    func results(tier: String?) throws -> (String, String) {
        func result(slow: [Double]) -> LaunchResult {
            let runs = (0..<8).map { i -> RunRecord in
                var phases = (0..<20).map { PhaseRecord(name: "phase \($0)", start: 0, duration: 0.1 + Double(i) * 0.0001) }
                phases.append(PhaseRecord(name: "slow", start: 0, duration: slow[i]))
                return RunRecord(index: i + 1, total: 2 + slow[i] + Double(i) * 0.002, phases: phases)
            }
            let configuration = RunConfiguration(
                runs: 8, warmup: 0, mode: .warm, timeout: 60,
                tier: tier.map { TierInfo(name: $0, factors: [.cpu: 40], memoryBudget: nil, hostReference: nil) })
            return LaunchResult(
                date: "2026-11-26T00:00:00Z", manifest: ManifestInfo(name: "default", path: "m.json", sha256: ""),
                host: HostInfo.current(), configuration: configuration, runs: runs)
        }
        let baseline = (0..<8).map { 1.0 + Double($0) * 0.01 }
        var candidate = baseline.map { $0 * 1.2 }
        candidate[0] = baseline[3] - 0.005
        let a = CLI.temporaryPath("family-a-\(tier ?? "host").json"), b = CLI.temporaryPath("family-b-\(tier ?? "host").json")
        try ResultFile.write(result(slow: baseline), to: a)
        try ResultFile.write(result(slow: candidate), to: b)
        return (a, b)
    }

    func regressions(_ output: String) throws -> (names: [String], together: [String: Any]?) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return (object["regressions"] as? [String] ?? [], object["testedTogether"] as? [String: Any])
    }

    @Test func offATierEachRowIsJudgedAlone() throws {
        let (a, b) = try results(tier: nil)
        defer { unlink(a); unlink(b) }
        let diff = try CLI.run(["diff", a, b, "--format", "json"])
        let (names, together) = try regressions(diff.stdout)
        #expect(names.contains("slow"), "\(diff.stdout)")
        #expect(together == nil)
    }

    @Test func onATierTheRowsAreJudgedTogether() throws {
        let (a, b) = try results(tier: "iphone-3gs")
        defer { unlink(a); unlink(b) }
        let diff = try CLI.run(["diff", a, b, "--format", "json"])
        let (names, together) = try regressions(diff.stdout)
        #expect(!names.contains("slow"), "\(diff.stdout)")
        #expect(together?["correction"] as? String == "holm")
        let text = try CLI.run(["diff", a, b])
        #expect(text.stdout.contains("rows judged together (Holm, 1% over all)"), "\(text.stdout)")
        let check = try CLI.run(["check", "--result", b, "--baseline", a, "--format", "json"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(try regressions(check.stdout).together?["correction"] as? String == "holm")
    }
}
