import LaunchCore
import Testing

@testable import LaunchFunctions

/// Stacks from a call graph: exact where each function has one caller, proportional where it has
/// several, recursion not followed, every phase's total kept (docs/flame-graphs.md).
struct CallStackReconstructionTests {
    typealias Graph = RunFunctionProfile.PhaseCallGraph

    static func stacks(_ graph: Graph, _ reconstruction: CallStackReconstruction = .init()) -> [[Int]: Int] {
        Dictionary(reconstruction.stacks(graph).map { ($0.frames, $0.weight) }, uniquingKeysWith: +)
    }

    @Test func aTreeGivesItsExactStacks() {
        // 0 main → 1 a (60) → 3 c (30); 0 main → 2 b (40) → 4 d (20).
        let graph = Graph(selfInstructions: [1: 30, 2: 20, 3: 30, 4: 20], calls: [0: [1: 60, 2: 40], 1: [3: 30], 2: [4: 20]])
        #expect(Self.stacks(graph) == [[0, 1]: 30, [0, 1, 3]: 30, [0, 2]: 20, [0, 2, 4]: 20])
    }

    @Test func aSharedCalleeIsSplitInProportionToItsCallersCalls() {
        // c (1 self, calls d 99) is called by a for 75 and by b for 25: each caller gets c's split 1:99.
        let graph = Graph(selfInstructions: [3: 1, 4: 99], calls: [0: [1: 75, 2: 25], 1: [3: 75], 2: [3: 25], 3: [4: 99]])
        let stacks = Self.stacks(graph)
        #expect(stacks[[0, 1, 3, 4]] == 74)  // 75 × 99/100, rounded
        #expect(stacks[[0, 2, 3, 4]] == 25)  // 24.75
        #expect(stacks.values.reduce(0, +) == 100, "the phase's total is kept (rounding aside)")
    }

    @Test func recursionThroughAnotherFunctionIsNotFollowed() {
        // a → b → a: the inner call's instructions are inside the outer a's already.
        let graph = Graph(selfInstructions: [0: 50, 1: 50], calls: [0: [1: 60], 1: [0: 10]])
        let stacks = Self.stacks(graph)
        #expect(stacks.keys.allSatisfy { $0.count <= 2 }, "\(stacks)")
        #expect(stacks.values.reduce(0, +) == 100)
    }

    @Test func narrowCalleesAreKeptTogetherUnderTheirCaller() {
        let graph = Graph(selfInstructions: [0: 9_990, 1: 5, 2: 5], calls: [0: [1: 5, 2: 5]])
        let stacks = Self.stacks(graph, CallStackReconstruction(minimumShare: 0.01))
        #expect(stacks == [[0]: 9_990, [0, CallStackReconstruction.narrowCallees]: 10])
    }

    @Test func theRealDumpsPhaseHasItsCallChainsAndItsTotal() throws {
        let profile = try CallgrindFunctionReaderTests.read()
        let range = 2..<5
        let costs = profile.costs(of: range)
        let graph = Graph(selfInstructions: costs.costs.mapValues(\.selfInstructions), calls: profile.calls(of: range))
        let stacks = CallStackReconstruction(minimumShare: 0).stacks(graph)
        let named = stacks.map { (names: $0.frames.map { profile.functions[$0].name }, weight: $0.weight) }
        #expect(named.map(\.weight).reduce(0, +) == costs.instructions)
        // outer() called work() twice (7,006 + 3,506 instructions); main called work() once in the inner phase.
        let outerWork = try #require(named.first { $0.names.suffix(3) == ["main", "outer", "work"] })
        let mainWork = try #require(named.first { $0.names.suffix(2) == ["main", "work"] })
        #expect(outerWork.weight == 10_512)
        #expect(mainWork.weight == 3_506)
    }
}
