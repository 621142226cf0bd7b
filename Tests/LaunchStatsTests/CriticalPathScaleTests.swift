import Testing
import LaunchCore
@testable import LaunchStats

/// The critical path on many phases: sequential, and interleaved with overlapping ones.
struct CriticalPathScaleTests {
    @Test func aLongSequentialChainIsFollowedToTheStart() {
        let n = 20_000
        let phases = (0..<n).map { PhaseRecord(name: "p\($0)", start: Double($0), duration: 1) }
        let chain = PhaseAnalysis.criticalPath(RunRecord(total: Double(n), phases: phases))
        #expect(chain == Array(0..<n))
    }

    @Test func overlappingPhasesThatEndedEarlierDropOut() {
        // Thread 0: a 0…10, c 10…20. Thread 1: b 2…8 (overlaps a, ends earlier): not on the path.
        let run = RunRecord(
            total: 20,
            phases: [
                PhaseRecord(name: "a", start: 0, duration: 10),
                PhaseRecord(name: "b", start: 2, duration: 6, thread: 1),
                PhaseRecord(name: "c", start: 10, duration: 10)
            ])
        #expect(PhaseAnalysis.criticalPath(run) == [0, 2])
    }
}
