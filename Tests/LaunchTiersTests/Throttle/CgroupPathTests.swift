import Testing
@testable import LaunchTiers

/// Finding the cgroup hierarchies and a thread's place in them, from the kernel's text.
@Suite struct CgroupPathTests {
    static let mountinfo = """
        22 1 0:21 / /sys rw,nosuid shared:7 - sysfs sysfs rw
        30 22 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
        31 30 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct
        32 30 0:28 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
        33 30 0:29 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
        34 30 0:30 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw,nsdelegate
        35 30 0:27 / /mnt/cpu\\040copy rw,relatime - cgroup cgroup rw,cpu,cpuacct
        36 30 0:31 /docker/abc /sys/fs/cgroup/pids ro,relatime - cgroup cgroup rw,pids
        """

    @Test func hierarchiesAreFoundByController() throws {
        let mounts = CgroupMounts.parse(Self.mountinfo)
        #expect(mounts.v1.count == 3)  // cpu+cpuacct once (its second mount ignored), memory, pids; not name=systemd
        let cpu = try #require(mounts.v1Mount(for: "cpu"))
        #expect(cpu.mountPoint == "/sys/fs/cgroup/cpu,cpuacct")
        #expect(cpu.controllers == ["cpu", "cpuacct"])
        #expect(mounts.v1Mount(for: "cpuacct") == cpu)
        #expect(mounts.v1Mount(for: "memory")?.mountPoint == "/sys/fs/cgroup/memory")
        #expect(mounts.v1Mount(for: "blkio") == nil)
        #expect(mounts.unified?.mountPoint == "/sys/fs/cgroup/unified")
        #expect(mounts.unified?.isUnified == true)
    }

    @Test func escapesAreUndone() {
        #expect(CgroupMounts.unescape("/mnt/cpu\\040copy") == "/mnt/cpu copy")
        #expect(CgroupMounts.unescape("/a\\134b") == "/a\\b")
        #expect(CgroupMounts.unescape("/trailing\\04") == "/trailing\\04")
    }

    @Test func garbageIsIgnored() {
        let mounts = CgroupMounts.parse("nonsense\n1 2 3\n - cgroup\n\n")
        #expect(mounts.v1.isEmpty && mounts.unified == nil)
    }

    @Test func aCgroupMapsToItsDirectoryUnderTheMountRoot() {
        let whole = CgroupMount(mountPoint: "/sys/fs/cgroup/cpu", root: "/", controllers: ["cpu"], isUnified: false)
        #expect(whole.directory(of: "/") == "/sys/fs/cgroup/cpu")
        #expect(whole.directory(of: "/a/b") == "/sys/fs/cgroup/cpu/a/b")
        let subtree = CgroupMount(mountPoint: "/sys/fs/cgroup/pids", root: "/docker/abc", controllers: ["pids"], isUnified: false)
        #expect(subtree.directory(of: "/docker/abc") == "/sys/fs/cgroup/pids")
        #expect(subtree.directory(of: "/docker/abc/x") == "/sys/fs/cgroup/pids/x")
        #expect(subtree.directory(of: "/docker/abcd") == nil)
        #expect(subtree.directory(of: "/other") == nil)
    }

    @Test func membershipIsReadPerHierarchy() {
        let membership = CgroupMembership.parse(
            """
            9:name=systemd:/
            4:memory:/process_api/fb72
            1:cpu,cpuacct:/launchprof-1-2
            0::/user.slice/odd:name
            bad line
            """)
        #expect(membership.path(ofController: "memory") == "/process_api/fb72")
        #expect(membership.path(ofController: "cpu") == "/launchprof-1-2")
        #expect(membership.path(ofController: "cpuacct") == "/launchprof-1-2")
        #expect(membership.path(ofController: "pids") == nil)
        #expect(membership.unifiedPath == "/user.slice/odd:name")
    }

    @Test func staleNamesCarryTheirOwner() {
        #expect(StaleCgroups.owner(of: "launchprof-123-4") == 123)
        #expect(StaleCgroups.owner(of: "launchprof-123") == nil)
        #expect(StaleCgroups.owner(of: "launchprof-x-4") == nil)
        #expect(StaleCgroups.owner(of: "launchprof-0-4") == nil)
        #expect(StaleCgroups.owner(of: "other-123-4") == nil)
    }
}
