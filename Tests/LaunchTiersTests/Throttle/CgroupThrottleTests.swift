import Foundation
import Testing
@testable import LaunchTiers
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// The cgroup v1 mechanism on the real kernel (root and a v1 cpu hierarchy, as on the CI machine):
/// the run's cgroup and its files, the child inside it from the start, removal in every case.
@Suite(.serialized, .enabled(if: CgroupSupport.v1, "needs root and a cgroup v1 cpu hierarchy"))
struct CgroupThrottleTests {
    @Test func theRunsCgroupHasTheQuotaAndTheChildStartsInsideIt() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 8), forcing: .cgroupV1)
        #expect(throttle.mechanism == .cgroupV1)
        let directory = try #require(throttle.cgroupDirectories.first)
        #expect(throttle.cgroupDirectories.count == 1)
        #expect(directory.hasPrefix(try #require(CgroupSupport.mounts.v1Mount(for: "cpu")).mountPoint + "/"))
        #expect(CgroupFile.read(directory + "/cpu.cfs_quota_us") == "1000\n")
        #expect(CgroupFile.read(directory + "/cpu.cfs_period_us") == "8000\n")
        let before = CgroupMembership.callingThread()
        // The child reads its own cgroups: it is inside before it runs any instruction of its own.
        let child = try ThrottledChild.run(["/bin/cat", "/proc/self/cgroup"], under: throttle)
        #expect(child.exitCode == 0)
        let name = String(directory.split(separator: "/").last!)
        let cpuLine = child.output.split(separator: "\n").first { $0.split(separator: ":")[1].split(separator: ",").contains("cpu") }
        #expect(cpuLine?.hasSuffix("/" + name) == true, "the child's cgroups: \(child.output)")
        // The launching thread went back where it was.
        #expect(CgroupMembership.callingThread() == before)
        #expect(!CgroupSupport.exists(directory))
        #expect(child.outcome == ThrottleOutcome())
    }

    @Test func aSpawnerPutsTheProgramInAndItselfBackOut() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 8), forcing: .cgroupV1)
        let directory = throttle.cgroupDirectories[0]
        let moves = throttle.spawnerMoves
        // v1: the spawner's one thread moves itself (`0` to `tasks`), which takes no global lock.
        #expect(moves.enter == [directory + "/tasks"])
        #expect(moves.leave == [FileIO.parentDirectory(of: directory) + "/tasks"])
        let child = try ThrottledChild.run(ThrottledChild.spawner(moves, around: "cat /proc/self/cgroup"), under: throttle, throughSpawner: true)
        #expect(child.exitCode == 0)
        let parts = child.output.components(separatedBy: "--\n")
        let name = String(directory.split(separator: "/").last!)
        #expect(parts.count == 2 && parts[0].contains("/" + name + "\n") && !parts[1].contains(name), "\(child.output)")
        #expect(!CgroupSupport.exists(directory))
    }

    @Test func theChildIsThrottled() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 16), forcing: .cgroupV1)
        let directory = throttle.cgroupDirectories[0]
        var throttledPeriods = 0
        let child = try ThrottledChild.run(ThrottledChild.busyLoop(150_000), under: throttle) { _ in
            usleep(300_000)
            throttledPeriods = CgroupFile.counter("nr_throttled", in: directory + "/cpu.stat") ?? 0
        }
        #expect(child.exitCode == 0)
        #expect(throttledPeriods > 0)
        // A busy machine only lengthens the wall time: the bound below holds whatever the load.
        #expect(child.stretch > 8, "wall \(child.wall) s for \(child.cpu) s of CPU")
        #expect(!CgroupSupport.exists(directory))
    }

    @Test func theQuotaIsTheDevicesCoresWorth() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 16, cores: 2), forcing: .cgroupV1)
        defer { throttle.finish() }
        let directory = throttle.cgroupDirectories[0]
        #expect(CgroupFile.read(directory + "/cpu.cfs_quota_us") == "2000\n")
        #expect(CgroupFile.read(directory + "/cpu.cfs_period_us") == "16000\n")
    }

    /// Two processes computing at once on a one-core device share its one core: each is stretched
    /// about 2 F. Measured by CPU time (the wall time per CPU second of each): a busy machine only
    /// lengthens the wall time, so the lower bound holds whatever the load. (That two cores stretch
    /// each by F alone is a timing goal: `make bench`.)
    @Test func twoProcessesComputingAtOnceShareOneCore() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 8, cores: 1), forcing: .cgroupV1)
        let loop = "i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done"
        let child = try ThrottledChild.run(["/bin/sh", "-c", "(\(loop)) & (\(loop)); wait"], under: throttle)
        #expect(child.exitCode == 0)
        let eachStretched = child.wall / max(child.cpu / 2, 1e-6)
        #expect(eachStretched > 8 * 1.5, "wall \(child.wall) s for \(child.cpu) s of CPU in two processes")
    }

    @Test func theCgroupIsRemovedAfterACrash() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 4), forcing: .cgroupV1)
        let directory = throttle.cgroupDirectories[0]
        let child = try ThrottledChild.run(["/bin/sh", "-c", "kill -SEGV $$"], under: throttle)
        #expect(child.signal == SIGSEGV)
        #expect(!CgroupSupport.exists(directory))
        #expect(child.outcome.cleanupProblem == nil)
    }

    @Test func theCgroupIsRemovedWhenTheSpawnFails() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 4), forcing: .cgroupV1)
        let directory = throttle.cgroupDirectories[0]
        let before = CgroupMembership.callingThread()
        #expect(throws: TierError.self) { try ThrottledChild.run(["/nonexistent/program"], under: throttle) }
        #expect(CgroupMembership.callingThread() == before)
        #expect(!CgroupSupport.exists(directory))
    }

    @Test func anUnfinishedThrottleIsFinishedWhenReleased() throws {
        var directory = ""
        do {
            let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 4), forcing: .cgroupV1)
            directory = throttle.cgroupDirectories[0]
            #expect(CgroupSupport.exists(directory))
        }
        #expect(!CgroupSupport.exists(directory))
    }

    @Test func whatEscapedTheProcessGroupIsKilledWithTheCgroup() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 2), forcing: .cgroupV1)
        let directory = throttle.cgroupDirectories[0]
        // setsid: a new session and group, out of reach of the group kill; still in the cgroup.
        let child = try ThrottledChild.run(["/bin/sh", "-c", "setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $!"], under: throttle)
        let escaped = try #require(pid_t(child.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(CgroupSupport.isGone(escaped))
        #expect(!CgroupSupport.exists(directory))
        #expect(child.outcome.cleanupProblem == nil)
    }

    @Test func theInterruptionCleanupRemovesLiveCgroupsAndKillsWhatIsInside() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 4), forcing: .cgroupV1)
        let directory = throttle.cgroupDirectories[0]
        let child = try ThrottledChild.run(["/bin/sleep", "60"], under: throttle) { _ in
            throttle.cleanupRegistrations.forEach(ExitCleanup.runNow)
        }
        #expect(child.signal == SIGKILL)
        #expect(!CgroupSupport.exists(directory))
        #expect(child.outcome.cleanupProblem == nil)
    }

    @Test func theInterruptionCleanupMovesALaunchingThreadOutFirst() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 4), forcing: .cgroupV1)
        let directory = throttle.cgroupDirectories[0]
        let before = CgroupMembership.callingThread()
        // As if SIGINT arrived during the spawn, while this thread is inside the run's cgroup.
        let inside = try throttle.spawning { () -> String? in
            let path = CgroupMembership.callingThread()?.path(ofController: "cpu")
            throttle.cleanupRegistrations.forEach(ExitCleanup.runNow)
            return path
        }
        #expect(inside?.hasSuffix(String(directory.split(separator: "/").last!)) == true)
        #expect(!CgroupSupport.exists(directory))
        #expect(CgroupMembership.callingThread() == before)
        #expect(throttle.finish().cleanupProblem == nil)
    }

    @Test func staleCgroupsOfDeadLaunchersAreRemovedIfEmpty() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 2), forcing: .cgroupV1)
        defer { throttle.finish() }
        let parent = String(throttle.cgroupDirectories[0].split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        // A pid that is surely dead: a child that has been reaped.
        let done = try ThrottledChild.run(["/bin/true"], under: try RunThrottle.make(ThrottleSpec(cpuFactor: 1), forcing: .signals))
        let dead = parent + "/launchprof-\(done.pid)-1"
        let alive = parent + "/launchprof-\(getppid())-1"
        let notOurs = parent + "/launchprof-other"
        for path in [dead, alive, notOurs] { try CgroupFile.makeDirectory(path) }
        defer { for path in [dead, alive, notOurs] { rmdir(path) } }
        #expect(StaleCgroups.sweep(parent) == 1)
        #expect(!CgroupSupport.exists(dead))
        #expect(CgroupSupport.exists(alive) && CgroupSupport.exists(notOurs))
    }

    @Test func aFactorOfOneMakesAnUnlimitedCgroup() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 1), forcing: .cgroupV1)
        #expect(CgroupFile.read(throttle.cgroupDirectories[0] + "/cpu.cfs_quota_us") == "-1\n")
        let child = try ThrottledChild.run(["/bin/true"], under: throttle)
        #expect(child.exitCode == 0)
    }

    @Test func withoutForcingTheV1HierarchyIsChosen() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 3))
        defer { throttle.finish() }
        #expect(throttle.mechanism == .cgroupV1)
        #expect(throttle.fallbackReason == nil)
    }
}

/// The memory limit (`--enforce-memory`) on the v1 memory hierarchy: the child's memory after `exec`
/// is charged to the run's memory cgroup (the launching thread, not the process, entered it), and
/// an OOM kill is told apart from any other SIGKILL.
@Suite(.serialized, .enabled(if: CgroupSupport.v1Memory, "needs root and cgroup v1 cpu and memory hierarchies"))
struct MemoryLimitTests {
    /// `dd` allocates one 64 MiB block and fills it.
    static let grow = ["/bin/dd", "if=/dev/zero", "of=/dev/null", "bs=64M", "count=1"]

    @Test func aProgramThatGrowsPastTheLimitIsKilledAndReported() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 1, memoryLimit: 16 << 20), forcing: .cgroupV1)
        #expect(throttle.cgroupDirectories.count == 2)
        let memory = try #require(throttle.cgroupDirectories.first { $0.contains("memory") })
        #expect(CgroupFile.read(memory + "/memory.limit_in_bytes") == "\(16 << 20)\n")
        let child = try ThrottledChild.run(Self.grow, under: throttle)
        #expect(child.signal == SIGKILL)
        #expect(child.outcome.killedOverMemoryLimit)
        for directory in throttle.cgroupDirectories { #expect(!CgroupSupport.exists(directory)) }
    }

    @Test func aProgramWithinTheLimitRunsAndIsNotReported() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 1, memoryLimit: 256 << 20), forcing: .cgroupV1)
        let child = try ThrottledChild.run(Self.grow, under: throttle)
        #expect(child.exitCode == 0)
        #expect(!child.outcome.killedOverMemoryLimit)
    }

    @Test func anOrdinarySIGKILLIsNotAMemoryKill() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 1, memoryLimit: 64 << 20), forcing: .cgroupV1)
        let child = try ThrottledChild.run(["/bin/sh", "-c", "kill -KILL $$"], under: throttle)
        #expect(child.signal == SIGKILL)
        #expect(!child.outcome.killedOverMemoryLimit)
    }

    @Test func aSpawnerEntersBothHierarchies() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 2, memoryLimit: 64 << 20), forcing: .cgroupV1)
        let moves = throttle.spawnerMoves
        #expect(moves.enter.count == 2 && moves.leave.count == 2)
        let child = try ThrottledChild.run(ThrottledChild.spawner(moves, around: "cat /proc/self/cgroup"), under: throttle, throughSpawner: true)
        let parts = child.output.components(separatedBy: "--\n")
        for directory in throttle.cgroupDirectories {
            let name = String(directory.split(separator: "/").last!)
            #expect(parts.count == 2 && parts[0].components(separatedBy: "/" + name + "\n").count == 3 && !parts[1].contains(name), "\(child.output)")
        }
    }

    @Test func theChildIsInTheMemoryCgroupWhileTheLauncherIsNot() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 2, memoryLimit: 64 << 20), forcing: .cgroupV1)
        let memory = try #require(throttle.cgroupDirectories.first { $0.contains("memory") })
        let child = try ThrottledChild.run(["/bin/cat", "/proc/self/cgroup"], under: throttle)
        let line = child.output.split(separator: "\n").first { $0.split(separator: ":")[1] == "memory" }
        #expect(line?.hasSuffix("/" + memory.split(separator: "/").last!) == true, "the child's cgroups: \(child.output)")
        #expect(CgroupMembership.callingThread()?.path(ofController: "memory")?.contains("launchprof-") == false)
    }
}

/// The unified (v2) hierarchy. This machine's offers no cpu controller, so only a cgroup without
/// controllers can be made here (a factor of 1): it still shows the move by `cgroup.procs` and the removal.
@Suite(.serialized, .enabled(if: CgroupSupport.unified, "needs root and a cgroup2 mount"))
struct UnifiedCgroupTests {
    @Test func theChildIsMovedInAfterTheSpawnAndTheCgroupIsRemoved() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 1), forcing: .cgroupV2)
        let directory = try #require(throttle.cgroupDirectories.first)
        // The move lands after the spawn (tens of ms on a loaded machine): the shell waits for it,
        // up to 10 s, then shows where it is.
        let name = String(directory.split(separator: "/").last!)
        let script = "i=0; while ! grep -q '/\(name)$' /proc/$$/cgroup && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; cat /proc/$$/cgroup"
        let child = try ThrottledChild.run(["/bin/sh", "-c", script], under: throttle)
        let line = child.output.split(separator: "\n").first { $0.hasPrefix("0::") }
        #expect(line?.hasSuffix("/" + directory.split(separator: "/").last!) == true, "the child's cgroups: \(child.output)")
        #expect(!CgroupSupport.exists(directory))
    }

    @Test func aSpawnerPutsTheProgramInAndItselfBackOut() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 1), forcing: .cgroupV2)
        let directory = throttle.cgroupDirectories[0]
        let own = try #require(CgroupSupport.mounts.unified?.directory(of: CgroupMembership.callingThread()?.unifiedPath ?? ""))
        #expect(throttle.spawnerMoves == SpawnerMoves(enter: [directory + "/cgroup.procs"], leave: [own + "/cgroup.procs"]))
        let child = try ThrottledChild.run(
            ThrottledChild.spawner(throttle.spawnerMoves, around: "cat /proc/self/cgroup"),
            under: throttle, throughSpawner: true)
        let parts = child.output.components(separatedBy: "--\n")
        let name = String(directory.split(separator: "/").last!)
        #expect(parts.count == 2 && parts[0].contains("/" + name + "\n") && !parts[1].contains(name), "\(child.output)")
        #expect(!CgroupSupport.exists(directory))
    }

    @Test(.enabled(if: !CgroupSupport.unifiedCPU, "the cpu controller is available in v2 here"))
    func withoutTheCPUControllerAFactorCannotBeForced() {
        #expect {
            try RunThrottle.make(ThrottleSpec(cpuFactor: 4), forcing: .cgroupV2)
        } throws: { error in
            guard case TierError.throttle(.unavailable(.cgroupV2, let reason)) = error else { return false }
            return reason.contains("cpu controller is not available")
        }
    }
}
