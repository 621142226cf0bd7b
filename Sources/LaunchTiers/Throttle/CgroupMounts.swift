#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// One mounted cgroup hierarchy, from a line of `/proc/self/mountinfo`.
package struct CgroupMount: Equatable, Sendable {
    /// Where it is mounted (`/sys/fs/cgroup/cpu`).
    var mountPoint: String
    /// The cgroup of the hierarchy shown at the mount point (`/` unless a container bind-mounts a subtree).
    var root: String
    /// The v1 controllers of the hierarchy (`cpu`, `cpuacct`, `memory` …); empty for the unified one.
    var controllers: Set<String>
    var isUnified: Bool

    /// The directory of `cgroup` (a path as `/proc/<pid>/cgroup` gives it) under this mount, or `nil`
    /// when the mount does not show it (it lies outside the mounted subtree).
    package func directory(of cgroup: String) -> String? {
        let base = mountPoint.hasSuffix("/") ? String(mountPoint.dropLast()) : mountPoint
        if root == "/" { return cgroup == "/" ? base : base + cgroup }
        if cgroup == root { return base }
        if cgroup.hasPrefix(root + "/") { return base + cgroup.dropFirst(root.count) }
        return nil
    }
}

/// The cgroup hierarchies this process sees: the v1 ones by controller, and the unified (v2) one.
package struct CgroupMounts: Equatable, Sendable {
    var v1: [CgroupMount] = []
    package var unified: CgroupMount?

    /// The v1 hierarchy that has `controller`, if one is mounted.
    func v1Mount(for controller: String) -> CgroupMount? {
        v1.first { $0.controllers.contains(controller) }
    }

    /// The cgroup v1 controllers (the kernel's list).
    static let knownControllers: Set<String> = [
        "cpu", "cpuacct", "cpuset", "memory", "blkio", "devices", "freezer", "net_cls", "net_prio",
        "perf_event", "hugetlb", "pids", "rdma", "misc"
    ]

    /// This process's mounts (`/proc/self/mountinfo`; none when it cannot be read).
    package static func current() -> CgroupMounts {
        parse((try? FileIO.readText("/proc/self/mountinfo", limit: 4 << 20)) ?? "")
    }

    /// Parses mountinfo lines: `ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL…] - TYPE SOURCE SUPEROPTIONS`.
    /// The first mount of each hierarchy is kept.
    static func parse(_ mountinfo: String) -> CgroupMounts {
        var mounts = CgroupMounts()
        for line in mountinfo.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, let dash = fields.firstIndex(of: "-"), dash >= 6, dash + 3 < fields.count else { continue }
            let type = fields[dash + 1]
            let root = unescape(fields[3]), point = unescape(fields[4])
            if type == "cgroup2" {
                if mounts.unified == nil {
                    mounts.unified = CgroupMount(mountPoint: point, root: root, controllers: [], isUnified: true)
                }
            } else if type == "cgroup" {
                // The super options name the controllers, among flags (`rw`, `clone_children`, `name=systemd` …).
                let controllers = Set(fields[dash + 3].split(separator: ",").map(String.init)).intersection(knownControllers)
                if !controllers.isEmpty, !mounts.v1.contains(where: { $0.controllers == controllers }) {
                    mounts.v1.append(CgroupMount(mountPoint: point, root: root, controllers: controllers, isUnified: false))
                }
            }
        }
        return mounts
    }

    /// Undoes mountinfo's octal escapes (`\040` for a space, `\011`, `\012`, `\134`).
    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        let source = Array(field.utf8)
        var i = 0
        while i < source.count {
            if source[i] == UInt8(ascii: "\\"), i + 3 < source.count,
                let value = UInt8(String(decoding: source[(i + 1)...(i + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                i += 4
            } else {
                bytes.append(source[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
