/// A flame graph's frames as a tree: the stacks merged by their common prefixes, each node's weight
/// its stacks' (and, for a differential graph, the baseline's too). Children sorted by name, as
/// `flamegraph.pl` does, so the picture is the same whatever the stacks' order.
struct FlameGraphTree {
    struct Node {
        var name: String
        var weight: UInt64 = 0
        var baseline: UInt64 = 0
        var children: [String: Int] = [:]
    }

    /// A node placed in the picture: its depth (0 for the root frames) and its start and width as
    /// shares of the whole (0 to 1).
    struct Placed {
        var name: String
        var depth: Int
        var start: Double
        var width: Double
        var weight: UInt64
        var baseline: UInt64
    }

    /// Node 0 is the invisible root over every stack.
    var nodes = [Node(name: "")]

    init(_ phase: PhaseStacks) {
        for stack in phase.stacks { add(stack.frames, weight: stack.weight, baseline: 0) }
    }

    init(_ differential: DifferentialStacks) {
        for stack in differential.stacks { add(stack.frames, weight: stack.candidate, baseline: stack.baseline) }
    }

    private mutating func add(_ frames: [String], weight: UInt64, baseline: UInt64) {
        var node = 0
        nodes[0].weight &+= weight
        nodes[0].baseline &+= baseline
        for frame in frames {
            let next: Int
            if let known = nodes[node].children[frame] {
                next = known
            } else {
                next = nodes.count
                nodes.append(Node(name: frame))
                nodes[node].children[frame] = next
            }
            nodes[next].weight &+= weight
            nodes[next].baseline &+= baseline
            node = next
        }
    }

    /// Every node at least `minimumWidth` of the whole wide, parents before children.
    func placed(minimumWidth: Double) -> [Placed] {
        let total = Double(nodes[0].weight)
        guard total > 0 else { return [] }
        var out: [Placed] = []
        var pending: [(node: Int, depth: Int, start: Double)] = [(0, -1, 0)]
        while let (node, depth, start) = pending.popLast() {
            if depth >= 0 {
                out.append(
                    Placed(
                        name: nodes[node].name, depth: depth, start: start, width: Double(nodes[node].weight) / total,
                        weight: nodes[node].weight, baseline: nodes[node].baseline))
            }
            var x = start
            var children: [(Int, Double)] = []
            for (_, child) in nodes[node].children.sorted(by: { $0.key < $1.key }) {
                let width = Double(nodes[child].weight) / total
                if width >= minimumWidth { children.append((child, x)) }
                x += width
            }
            for (child, x) in children.reversed() { pending.append((child, depth + 1, x)) }
        }
        return out
    }
}
