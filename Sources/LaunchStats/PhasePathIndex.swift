import LaunchCore

/// Numbers the distinct phase paths (`drawing/keys`: a phase's name with its parents') of a result's
/// runs, in the order of their first appearance. A phase's row is found from its parent's row and its
/// name, so a path string is built once per row, never once per phase: building every phase's path
/// costs depth × name bytes each, quadratic in deep nesting of long names. Phases that read the same
/// path (`a/b` at the top, `b` under `a`) share a row, as the streaming reader has them.
public struct PhasePathIndex: Sendable {
    /// Each row's path, by row number.
    public private(set) var paths: [String] = []
    private var rowOfNode: [Node: Int] = [:]
    private var rowOfPath: [String: Int] = [:]

    private struct Node: Hashable {
        var parentRow: Int
        var name: String
    }

    public init() {}

    /// The row of each of `phases` (one run's, parents before children), numbering new paths after
    /// the known ones: a phase whose row is `paths.count` before the call opens a new row.
    public mutating func rows(of phases: [PhaseRecord]) -> [Int] {
        var rows: [Int] = []
        rows.reserveCapacity(phases.count)
        for phase in phases {
            // A parent that is not an earlier phase (a result is checked for that) counts as none.
            let node = Node(parentRow: phase.parent.flatMap { $0 >= 0 && $0 < rows.count ? rows[$0] : nil } ?? -1, name: phase.name)
            if let known = rowOfNode[node] {
                rows.append(known)
                continue
            }
            let path = node.parentRow >= 0 ? paths[node.parentRow] + "/" + phase.name : phase.name
            let row = rowOfPath[path] ?? paths.count
            if row == paths.count {
                rowOfPath[path] = row
                paths.append(path)
            }
            rowOfNode[node] = row
            rows.append(row)
        }
        return rows
    }
}
