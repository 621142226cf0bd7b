import Testing

@testable import LaunchFlameGraphs

/// The stack model: merging equal stacks, totals, the whole launch from the top-level phases.
struct StackProfileTests {
    static let drawing = PhaseStacks(
        phase: "drawing",
        stacks: [
            WeightedStack(frames: ["main", "draw", "fill"], weight: 30),
            WeightedStack(frames: ["main", "draw"], weight: 5),
            WeightedStack(frames: ["main", "draw", "fill"], weight: 10),
            WeightedStack(frames: ["main", "idle"], weight: 0)
        ])

    @Test func mergingAddsEqualStacksAndDropsEmptyOnes() {
        let merged = Self.drawing.merged()
        #expect(
            merged.stacks == [
                WeightedStack(frames: ["main", "draw"], weight: 5),
                WeightedStack(frames: ["main", "draw", "fill"], weight: 40)
            ])
        #expect(merged.totalWeight == 45)
        #expect(Self.drawing.totalWeight == 45)
    }

    @Test func theWholeLaunchPutsEachTopLevelPhaseUnderItsNameOnce() {
        let keys = PhaseStacks(phase: "drawing/keys", stacks: [WeightedStack(frames: ["main", "draw", "fill"], weight: 10)])
        let layout = PhaseStacks(phase: "layout", stacks: [WeightedStack(frames: ["main", "measure"], weight: 7)])
        let profile = StackProfile(unit: .instructions, phases: [Self.drawing, keys, layout])
        let launch = profile.wholeLaunch()
        #expect(launch.phase == "whole launch")
        #expect(launch.totalWeight == 52, "the nested phase is inside its parent: not counted twice")
        #expect(launch.stacks.first == WeightedStack(frames: ["drawing", "main", "draw"], weight: 5))
        #expect(profile.phase("drawing/keys") == keys)
        #expect(profile.phase("draw") == nil)
    }
}
