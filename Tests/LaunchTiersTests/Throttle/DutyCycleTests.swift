import Foundation
import Testing
@testable import LaunchTiers
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// The SIGSTOP/SIGCONT fallback, forced (it needs no privilege, so it runs everywhere).
@Suite(.serialized) struct DutyCycleTests {
    @Test func theProgramIsStretchedAndTheGroupLeftContinued() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 6), forcing: .signals)
        #expect(throttle.mechanism == .signals && throttle.cgroupDirectories.isEmpty)
        var sawStopped = false
        let child = try ThrottledChild.run(ThrottledChild.busyLoop(100_000), under: throttle) { pid in
            let until = MonotonicClock.nanoseconds() + 200_000_000
            while MonotonicClock.nanoseconds() < until, !sawStopped {
                sawStopped = CgroupSupport.state(of: pid) == "T"
                usleep(500)
            }
        }
        #expect(child.exitCode == 0)
        #expect(sawStopped)
        #expect(child.stretch > 3, "wall \(child.wall) s for \(child.cpu) s of CPU")
    }

    @Test func stoppingLeavesTheGroupContinuedAndEndsTheThread() throws {
        var pid: pid_t = 0
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals as a launcher gives them: none blocked, SIGTERM's default action.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup("while :; do :; done"), nil]
        defer { for pointer in argv { free(pointer) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, &attributes, &argv, environ) == 0)
        defer {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        // A long stop phase (99 × 0.5 ms), so a stop() at a random moment is most likely in one.
        let cycle = DutyCycle(group: pid, factor: 100)
        try cycle.start()
        usleep(150_000)
        #expect(cycle.cycles > 0)
        cycle.stop()
        #expect(cycle.hasEnded)
        let cycles = cycle.cycles
        usleep(50_000)
        #expect(cycle.cycles == cycles)
        var states: Set<Character> = []
        for _ in 0..<20 {
            if let state = CgroupSupport.state(of: pid) { states.insert(state) }
            usleep(1000)
        }
        #expect(!states.contains("T"), "states seen: \(states)")
        // A continued group acts on SIGTERM at once.
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
        var reaped: pid_t = 0
        while reaped == 0, MonotonicClock.nanoseconds() < deadline {
            reaped = waitpid(pid, &status, WNOHANG)
            usleep(1000)
        }
        #expect(reaped == pid && status & 0x7f == SIGTERM)
    }

    @Test func aSpawnerLeadingTheGroupIsSparedAndTheProgramStopped() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 100), forcing: .signals)
        #expect(throttle.spawnerMoves.isEmpty)
        var leaderStopped = 0, programStopped = 0, samples = 0
        // The "spawner" waits for its busy child, as launchprof-spawn waits for the program. The program
        // loops until it has been sampled and is killed here: a program that ended by itself could finish
        // before a loaded machine gave this thread its first look (seen: 0 samples at load 12–15).
        let child = try ThrottledChild.run(
            ["/bin/sh", "-c", "sh -c 'while :; do :; done' & wait"],
            under: throttle, throughSpawner: true
        ) { leader in
            // Sample from the program's appearance until 1 s has passed and 20 samples are taken, giving
            // up after 60 s in all: the count, not the time, is what the assertions need.
            let giveUp = MonotonicClock.nanoseconds() + 60_000_000_000
            var program: pid_t?
            var until: UInt64?
            while MonotonicClock.nanoseconds() < giveUp {
                if program == nil { program = CgroupSupport.firstChild(of: leader) }
                guard let program else { usleep(1000); continue }
                if until == nil { until = MonotonicClock.nanoseconds() + 1_000_000_000 }
                if let until, MonotonicClock.nanoseconds() >= until, samples >= 20 { break }
                if CgroupSupport.state(of: leader) == "T" { leaderStopped += 1 }
                if CgroupSupport.state(of: program) == "T" { programStopped += 1 }
                samples += 1
                usleep(1000)
            }
            if let program { kill(program, SIGKILL) }
        }
        #expect(child.exitCode == 0)
        // F = 100: the group is stopped 99% of the time; the leader is continued right after each stop.
        #expect(samples >= 20 && programStopped > samples / 2, "program stopped in \(programStopped) of \(samples) samples")
        #expect(leaderStopped < samples / 10, "leader stopped in \(leaderStopped) of \(samples) samples")
    }

    @Test func theThreadEndsByItselfWhenTheGroupIsGone() throws {
        var pid: pid_t = 0
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { for pointer in argv { free(pointer) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, &attributes, &argv, environ) == 0)
        let cycle = DutyCycle(group: pid, factor: 2)
        try cycle.start()
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
        while !cycle.hasEnded, MonotonicClock.nanoseconds() < deadline { usleep(1000) }
        #expect(cycle.hasEnded)
        cycle.stop()
    }

    @Test func aFactorOfOneStartsNoThread() throws {
        let cycle = DutyCycle(group: 12345, factor: 1)
        try cycle.start()
        #expect(cycle.cycles == 0)
        cycle.stop()
    }

    @Test func finishIsRepeatable() throws {
        let throttle = try RunThrottle.make(ThrottleSpec(cpuFactor: 3), forcing: .signals)
        let child = try ThrottledChild.run(["/bin/true"], under: throttle)
        #expect(child.exitCode == 0)
        #expect(throttle.finish() == child.outcome)
    }
}
