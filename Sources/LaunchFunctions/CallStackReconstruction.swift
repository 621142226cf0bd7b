import LaunchCore

/// Call stacks from a call graph: Callgrind records, per phase, each function's own instructions and
/// the inclusive instructions of every caller→callee edge, not the stacks themselves. The stacks are
/// rebuilt by walking the graph from its roots (functions whose inclusive count is more than their
/// callers' calls account for: `_start`, a thread's start) and giving each node's weight to its own
/// code and to its callees in proportion to their counts (`self` and each call's inclusive count).
///
/// That is exact where a function is called from one place; where it is called from several, every
/// caller's stack gets the callee's children in the same proportions (the call graph does not say
/// which caller's calls were the expensive ones): an approximation, documented in docs/flame-graphs.md.
/// A call back into a function already on the stack (recursion through another function) is not
/// followed: its instructions are inside the outer call's already. Each phase's total is kept exactly;
/// callees under ``minimumShare`` of the phase are kept together, under one frame per caller.
public struct CallStackReconstruction: Sendable {
    /// The frame that stands for a function's callees each lighter than ``minimumShare`` of the phase,
    /// together (their weight is kept; their names and stacks are not).
    public static let narrowCallees = -1
    /// Its name in a flame graph.
    public static let narrowCalleesName = "[callees under 0.01% each]"
    /// A callee lighter than this share of the phase is not walked: it joins its caller's ``narrowCallees``.
    public var minimumShare: Double
    /// The deepest stack; a deeper branch ends there.
    public var maximumDepth: Int
    /// The most nodes walked; past it every branch ends where it is.
    public var maximumNodes: Int

    public init(minimumShare: Double = 1e-4, maximumDepth: Int = ResultStacks.maximumDepth, maximumNodes: Int = 1 << 20) {
        self.minimumShare = minimumShare
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
    }

    /// The stacks of `graph` (frames are its function indices, root first), equal ones added up, the
    /// heaviest first; their weights add up to the graph's self instructions (rounding aside).
    public func stacks(_ graph: RunFunctionProfile.PhaseCallGraph) -> [(frames: [Int], weight: Int)] {
        let total = graph.selfInstructions.values.reduce(0, CallgrindProfile.Costs.sum)
        guard total > 0 else { return [] }
        var walk = Walk(graph: graph, floor: Double(total) * minimumShare, maximumDepth: maximumDepth, budget: maximumNodes)
        let roots = Self.roots(graph)
        let rootSum = roots.reduce(0.0) { $0 + $1.weight }
        guard rootSum > 0 else { return [] }
        for root in roots { walk.visit(root.function, weight: root.weight / rootSum * Double(total)) }
        return walk.weights.compactMap { frames, weight in
            let rounded = Int(weight.rounded())
            return rounded > 0 ? (frames, rounded) : nil
        }.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.frames.lexicographicallyPrecedes($1.frames) }
    }

    /// Functions whose inclusive count exceeds what their callers' calls to them account for, with the excess.
    static func roots(_ graph: RunFunctionProfile.PhaseCallGraph) -> [(function: Int, weight: Double)] {
        var incoming: [Int: Int] = [:]
        for (_, callees) in graph.calls {
            for (callee, count) in callees { incoming[callee] = CallgrindProfile.Costs.sum(incoming[callee] ?? 0, count) }
        }
        let functions = Set(graph.selfInstructions.keys).union(graph.calls.keys)
        return functions.sorted().compactMap { function in
            let inclusive = graph.calls[function, default: [:]].values.reduce(graph.selfInstructions[function] ?? 0, CallgrindProfile.Costs.sum)
            let excess = inclusive - (incoming[function] ?? 0)
            return excess > 0 ? (function, Double(excess)) : nil
        }
    }

    /// The depth-first walk: the stack so far and the weight gathered per stack.
    struct Walk {
        let graph: RunFunctionProfile.PhaseCallGraph
        let floor: Double
        let maximumDepth: Int
        var budget: Int
        var path: [Int] = []
        var onPath: Set<Int> = []
        var weights: [[Int]: Double] = [:]

        init(graph: RunFunctionProfile.PhaseCallGraph, floor: Double, maximumDepth: Int, budget: Int) {
            self.graph = graph
            self.floor = floor
            self.maximumDepth = maximumDepth
            self.budget = budget
        }

        mutating func visit(_ function: Int, weight: Double) {
            path.append(function)
            onPath.insert(function)
            defer {
                path.removeLast()
                onPath.remove(function)
            }
            budget -= 1
            let own = Double(graph.selfInstructions[function] ?? 0)
            let callees = graph.calls[function, default: [:]].filter { !onPath.contains($0.key) && $0.value > 0 }.sorted { $0.key < $1.key }
            let parts = callees.reduce(own) { $0 + Double($1.value) }
            guard parts > 0, path.count < maximumDepth, budget > 0, !callees.isEmpty else {
                weights[path, default: 0] += weight
                return
            }
            if own > 0 { weights[path, default: 0] += weight * own / parts }
            var narrow = 0.0
            for (callee, count) in callees {
                let share = weight * Double(count) / parts
                if share >= floor { visit(callee, weight: share) } else { narrow += share }
            }
            if narrow > 0 { weights[path + [CallStackReconstruction.narrowCallees], default: 0] += narrow }
        }
    }
}
