import Foundation
import Testing
import LaunchCore
import LaunchprofTestSupport
@testable import LaunchExport

/// The SVG timeline on runs with many threads: lanes gathered in one pass, at most
/// ``SVGTimelineExporter/maximumRows`` rows drawn, and the rest counted in a note.
@Suite struct SVGLaneCapTests {
    func result(threads: Int, phasesPerThread: Int = 1) -> LaunchResult {
        var phases: [PhaseRecord] = []
        // Threads in decreasing order: lanes are drawn by thread number, not by first appearance.
        for thread in (0..<threads).reversed() {
            for i in 0..<phasesPerThread {
                phases.append(PhaseRecord(name: "t\(thread)p\(i)", start: Double(i) * 0.001, duration: 0.001, thread: thread))
            }
        }
        let run = RunRecord(index: 1, total: 0.01, phases: phases)
        return LaunchResult(date: "", manifest: ManifestInfo(name: "x", path: "x", sha256: ""), host: SampleResult.host, runs: [run])
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func lanesPastTheRowCapAreCountedNotDrawn() throws {
        let cap = SVGTimelineExporter.maximumRows
        let svg = try SVGTimelineExporter().render(result(threads: cap + 1234))
        #expect(count("<rect x=", in: svg) - count(#"width="12" height="12""#, in: svg) == cap)
        #expect(svg.contains("1234 more phases on 1234 threads not drawn (the timeline draws the first \(cap);"))
        // The lowest thread numbers first.
        #expect(svg.contains(">main thread<") && svg.contains(">thread \(cap - 1)<") && !svg.contains(">thread \(cap)<"))
    }

    @Test func aLaneCutInTheMiddleIsCountedAmongTheThreadsLeftOut() throws {
        let cap = SVGTimelineExporter.maximumRows
        // Three threads of cap/2 + 1 phases: the second lane is cut, the third not drawn.
        let svg = try SVGTimelineExporter().render(result(threads: 3, phasesPerThread: cap / 2 + 1))
        #expect(svg.contains("\(3 * (cap / 2 + 1) - cap) more phases on 2 threads not drawn"), "\(svg.suffix(600))")
    }

    @Test func aRunWithinTheCapHasNoNote() throws {
        let svg = try SVGTimelineExporter().render(result(threads: 50, phasesPerThread: 3))
        #expect(!svg.contains("not drawn"))
        #expect(count(">thread ", in: svg) == 49)
    }

    @Test func lanesKeepEachThreadsPhasesInRunOrder() {
        let phases = [0, 2, 0, 1, 2].enumerated().map { PhaseRecord(name: "\($0.offset)", start: 0, duration: 0, thread: $0.element) }
        let lanes = SVGTimelineExporter.lanes(phases)
        #expect(lanes.map(\.thread) == [0, 1, 2])
        #expect(lanes.map(\.indices) == [[0, 2], [3], [1, 4]])
    }
}
