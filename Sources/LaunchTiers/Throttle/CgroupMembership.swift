#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// The cgroups a thread belongs to, one per hierarchy, as `/proc/<pid>/task/<tid>/cgroup` lists
/// them: `ID:CONTROLLERS:PATH` (`4:memory:/a/b`; the unified hierarchy is `0::/path`).
package struct CgroupMembership: Equatable, Sendable {
    struct Entry: Equatable, Sendable {
        var controllers: [String]
        var path: String
        var isUnified: Bool
    }

    var entries: [Entry]

    /// The cgroup of the v1 hierarchy that has `controller`.
    func path(ofController controller: String) -> String? {
        entries.first { !$0.isUnified && $0.controllers.contains(controller) }?.path
    }

    /// The cgroup in the unified (v2) hierarchy.
    package var unifiedPath: String? { entries.first { $0.isUnified }?.path }

    /// The calling thread's cgroups (`/proc/thread-self/cgroup`), or `nil` when they cannot be read.
    package static func callingThread() -> CgroupMembership? {
        guard let text = try? FileIO.readText("/proc/thread-self/cgroup", limit: 1 << 20) else { return nil }
        return parse(text)
    }

    /// The cgroups of any process or thread, from the text of its `cgroup` file.
    static func parse(_ text: String) -> CgroupMembership {
        var entries: [Entry] = []
        for line in text.split(separator: "\n") {
            // The path may itself contain ':', so only the first two separate fields.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
            let controllers = fields[1].split(separator: ",").map(String.init)
            entries.append(Entry(controllers: controllers, path: String(fields[2]), isUnified: fields[0] == "0" && controllers.isEmpty))
        }
        return CgroupMembership(entries: entries)
    }
}
