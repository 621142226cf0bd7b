import Testing

@testable import LaunchTiers

/// A throttle's failure is LaunchTiers' one error (``TierError/throttle(_:)``), each case worded by
/// the one renderer as when it was an error of its own.
@Suite struct ThrottleProblemTests {
    @Test func eachCaseIsWordedAsBefore() {
        let cases: [(ThrottleProblem, String)] = [
            (.factorOutOfRange(1000.5), "the cpu factor 1000.5 is out of range: it must be from 1 to 1000"),
            (.memoryLimitOutOfRange(12), "the memory limit of 12 bytes is out of range: it must be from 1 MiB to 1 TiB"),
            (.coresOutOfRange(0), "the device's 0 cores are out of range: it must have from 1 to 256"),
            (.unavailable(.cgroupV2, reason: "no cgroup2 hierarchy is mounted"), "cannot throttle with cgroup v2 cpu.max: no cgroup2 hierarchy is mounted"),
            (.memoryLimitNeedsCgroup(reason: "r"), "the memory limit needs a cgroup, and none can be made here: r"),
            (
                .cgroup(path: "/sys/fs/cgroup/x", action: "create the cgroup", reason: "Permission denied"),
                "/sys/fs/cgroup/x: cannot create the cgroup: Permission denied"
            ),
            (.threadNotStarted(reason: "Resource temporarily unavailable"), "cannot start the throttling thread: Resource temporarily unavailable")
        ]
        for (problem, message) in cases {
            #expect(TierError.throttle(problem).description == message)
        }
    }

    @Test func aBadSpecIsRefusedAsTheModulesError() {
        #expect(throws: TierError.throttle(.coresOutOfRange(0))) { try RunThrottle.make(ThrottleSpec(cpuFactor: 2, cores: 0), forcing: .signals) }
    }
}
