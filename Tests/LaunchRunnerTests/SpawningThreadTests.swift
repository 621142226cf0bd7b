import LaunchCore
import Testing

@testable import LaunchRunner
import LaunchTiers

#if canImport(Glibc)
import Glibc
#endif

/// The thread `--sample` attaches perf to (docs/sampling.md): each job runs on it, the caller waits,
/// and a launch spawned there is the same launch. (That perf follows what it spawns, and nothing
/// else of launchprof, is SampleCLITests' check: their samples land in the program's phases.)
@Suite struct SpawningThreadTests {
    @Test func eachJobRunsOnTheThreadAndReturnsItsValue() throws {
        let thread = try #require(SpawningThread())
        let caller = LinuxThreadCalls.currentThread()
        #expect(thread.tid > 0 && thread.tid != caller)
        #expect(LinuxThreadCalls.isOwnThread(thread.tid))
        var counted = 0
        for i in 0..<50 {
            let ran = thread.perform { () -> pid_t in
                counted += i  // the caller's variable, used while the caller waits
                return LinuxThreadCalls.currentThread()
            }
            #expect(ran == thread.tid)
        }
        #expect(counted == (0..<50).reduce(0, +))
    }

    @Test func theThreadEndsWithItsOwner() throws {
        var tid: pid_t = 0
        do {
            let thread = try #require(SpawningThread())
            tid = thread.tid
            #expect(LinuxThreadCalls.isOwnThread(tid))
        }
        // Joined when the last reference went.
        #expect(!LinuxThreadCalls.isOwnThread(tid))
    }

    @Test func aLaunchSpawnedOnTheThreadIsTheSameLaunch() throws {
        let thread = try #require(SpawningThread())
        var launcher = ProcessLauncher(
            executable: "/bin/sh",
            arguments: ["-c", "printf 'launchprof 1\\nbegin - 0 - work\\n' >&3; sleep 0.02; printf 'end - 0 work\\ndone -\\n' >&3; exit 3"],
            timeout: 20)
        var program = ProgramOptions()
        program.ignoreFailure = true
        launcher.program = program
        launcher.spawningThread = thread
        let record = try launcher.launch(index: 1)
        #expect(record.phases.map(\.name).contains("work"), "\(record.phases.map(\.name))")
        #expect(record.process?.exitStatus == 3)
        #expect(record.total >= 0.02 && (record.pid ?? 0) > 0)
    }
}
