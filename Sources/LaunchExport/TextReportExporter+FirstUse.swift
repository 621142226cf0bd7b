import LaunchCore
import LaunchStats

extension TextReportExporter {
    /// The lines under a deferred stage's line (`Time for loading conversions: deferred, …`): the
    /// phases inside its first use and, `includingPreload` (the instruction report, which has no
    /// `On worker threads` section), its preload on the worker thread (`strategies.preload`:
    /// after-launch work, not in the total), as `prefix <name>: <value>` lines, indented.
    static func firstUseLines(
        _ table: PhaseTable, stage name: String, prefix: String, includingPreload: Bool,
        value: (PhaseTable.Row) -> String
    ) -> [String] {
        let preload = AppInterface.preloadPhaseName(of: name)
        var lines: [String] = []
        for row in table.rows where row.afterLaunch && !row.inBackground && !row.isMark {
            if row.path.hasPrefix(name + "/") {
                lines.append(String(repeating: "  ", count: row.depth) + "\(prefix) \(PlainText.oneLine(row.name)): \(value(row))")
            } else if includingPreload, row.path == preload || row.path.hasPrefix(preload + "/") {
                lines.append(
                    String(repeating: "  ", count: row.depth + 1) + "\(prefix) \(PlainText.oneLine(row.name)): \(value(row))"
                        + (row.depth == 0 ? " (on a worker thread, hidden: not in the total)" : ""))
            }
        }
        return lines
    }
}
