import LaunchprofTestSupport
import Foundation
@testable import LaunchTiers
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// A program run under a ``RunThrottle`` the way the launcher will: spawned in a process group of
/// its own inside ``RunThrottle/spawning(_:)``, ``RunThrottle/started(pid:)``, reaped with `wait4`,
/// its group killed, then ``RunThrottle/finish()``.
struct ThrottledChild {
    var pid: pid_t
    /// The raw wait status.
    var status: Int32
    /// Seconds from just before the spawn to the reap.
    var wall: Double
    /// User + system CPU seconds of the child (from `wait4`).
    var cpu: Double
    /// What it wrote to standard output.
    var output: String
    var outcome: ThrottleOutcome

    var exitCode: Int32? { status & 0x7f == 0 ? (status >> 8) & 0xff : nil }
    var signal: Int32? { status & 0x7f == 0 ? nil : status & 0x7f }
    /// Wall time over CPU time: about the cpu factor for a CPU-bound program.
    var stretch: Double { wall / max(cpu, 1e-6) }

    /// Runs `argv` under `throttle`; `whileRunning` is called with the pid after the spawn, before the
    /// reap. `throughSpawner`: `argv` is a spawner that applies ``RunThrottle/spawnerMoves`` itself.
    static func run(
        _ argv: [String], under throttle: RunThrottle, throughSpawner: Bool = false,
        whileRunning: (pid_t) -> Void = { _ in }
    ) throws -> ThrottledChild {
        let outputPath = TemporaryDirectory.uniquePath("throttle-output")
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // As the launcher: its own group, no signal blocked (the caller's mask is inherited otherwise).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        var cStrings: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cStrings { free(pointer) } }
        var pid: pid_t = 0
        var start: UInt64 = 0
        let spawn = { () -> Int32 in
            start = MonotonicClock.nanoseconds()
            return posix_spawn(&pid, argv[0], &actions, &attributes, &cStrings, environ)
        }
        let spawned = throughSpawner ? spawn() : try throttle.spawning(spawn)
        guard spawned == 0 else {
            throttle.finish()
            throw TierError.throttle(.cgroup(path: argv[0], action: "spawn", reason: String(cString: strerror(spawned))))
        }
        do {
            try throttle.started(pid: pid, throughSpawner: throughSpawner)
        } catch {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throttle.finish()
            throw error
        }
        whileRunning(pid)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = Double(MonotonicClock.nanoseconds() - start) / 1e9
        kill(-pid, SIGKILL)
        let outcome = throttle.finish()
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let output = (try? FileIO.readText(outputPath)) ?? ""
        return ThrottledChild(pid: pid, status: status, wall: wall, cpu: cpu, output: output, outcome: outcome)
    }

    /// A shell script that does what a spawner does with `moves` around `body` (run in a child).
    static func spawner(_ moves: SpawnerMoves, around body: String) -> [String] {
        let enter = moves.enter.map { "echo 0 > \($0)" }, leave = moves.leave.map { "echo 0 > \($0)" }
        return ["/bin/sh", "-c", (enter + [body] + leave + ["echo --", "cat /proc/self/cgroup"]).joined(separator: "\n")]
    }

    /// A shell loop that keeps one CPU busy for `iterations` rounds (150,000: about 0.2 s of CPU here).
    static func busyLoop(_ iterations: Int) -> [String] {
        ["/bin/sh", "-c", "i=0; while [ $i -lt \(iterations) ]; do i=$((i+1)); done"]
    }
}

/// What the cgroup tests need: root and a writable cgroup v1 cpu hierarchy (as on the CI machine).
enum CgroupSupport {
    static let mounts = CgroupMounts.current()
    static var isRoot: Bool { geteuid() == 0 }
    static var v1: Bool { isRoot && mounts.v1Mount(for: "cpu") != nil }
    static var v1Memory: Bool { v1 && mounts.v1Mount(for: "memory") != nil }
    static var unified: Bool { isRoot && mounts.unified != nil }
    /// Whether the unified hierarchy offers the cpu controller to this process's cgroup.
    static var unifiedCPU: Bool {
        guard let mount = mounts.unified, let path = CgroupMembership.callingThread()?.unifiedPath,
            let directory = mount.directory(of: path), let controllers = CgroupFile.read(directory + "/cgroup.controllers")
        else { return false }
        return controllers.split(whereSeparator: \.isWhitespace).contains("cpu")
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The state letter of `/proc/<pid>/stat` (`R`, `S`, `T` stopped, `Z` …), or `nil` once gone.
    static func state(of pid: pid_t) -> Character? {
        guard let text = try? FileIO.readText("/proc/\(pid)/stat", limit: 4096), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ").first?.first
    }

    /// The first child of `parent` (`/proc/<pid>/task/<pid>/children`), or `nil` while it has none.
    static func firstChild(of parent: pid_t) -> pid_t? {
        guard let text = try? FileIO.readText("/proc/\(parent)/task/\(parent)/children", limit: 4096) else { return nil }
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { pid_t($0) }
    }

    /// Whether `pid` has disappeared within 5 s (a zombie reaped by init may take a moment).
    static func isGone(_ pid: pid_t) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + 5_000_000_000
        while MonotonicClock.nanoseconds() < deadline {
            if kill(pid, 0) == -1 && errno == ESRCH { return true }
            if state(of: pid) == "Z" {
                var status: Int32 = 0
                waitpid(pid, &status, WNOHANG)
            }
            usleep(10_000)
        }
        return false
    }
}
