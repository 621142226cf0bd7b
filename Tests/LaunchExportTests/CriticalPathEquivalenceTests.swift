import Testing
@testable import LaunchExport
import LaunchCore
import LaunchStats

/// The O(n log n) critical path gives exactly what the O(n³) definition it replaced gave.
@Suite struct CriticalPathEquivalenceTests {
    /// The definition: from the phase that ends last, step to the latest-ending top-level launch phase
    /// (the earliest-listed on a tie) that ended before the current one began and is not yet in the chain.
    func referenceCriticalPath(_ run: RunRecord) -> [Int] {
        let candidates = run.phases.indices.filter { run.phases[$0].depth == 0 && !run.phases[$0].afterLaunch }
        guard var current = candidates.max(by: { run.phases[$0].end < run.phases[$1].end }) else { return [] }
        var chain = [current]
        while true {
            let start = run.phases[current].start
            let before = candidates.filter { $0 != current && run.phases[$0].end <= start + 1e-6 && !chain.contains($0) }
            guard let previous = before.max(by: { run.phases[$0].end < run.phases[$1].end }) else { break }
            chain.append(previous)
            current = previous
        }
        return chain.reversed()
    }

    @Test func matchesTheDefinitionOnRandomRuns() {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<300 {
            let count = Int.random(in: 0...40, using: &generator)
            // Coarse times, so that ties (equal ends, ends equal to starts, zero durations) are common.
            let phases = (0..<count).map { i -> PhaseRecord in
                let start = Double(Int.random(in: 0...10, using: &generator)) / 10
                let duration = Double(Int.random(in: 0...5, using: &generator)) / 10
                let nested = i > 0 && Int.random(in: 0...4, using: &generator) == 0
                return PhaseRecord(
                    name: "p\(i)", start: start, duration: duration, thread: Int.random(in: 0...2, using: &generator),
                    depth: nested ? 1 : 0, parent: nested ? 0 : nil,
                    afterLaunch: Int.random(in: 0...9, using: &generator) == 0)
            }
            let run = RunRecord(total: 1, phases: phases)
            #expect(PhaseAnalysis.criticalPath(run) == referenceCriticalPath(run), "trial \(trial): \(phases.map { ($0.start, $0.end, $0.depth) })")
        }
    }
}
