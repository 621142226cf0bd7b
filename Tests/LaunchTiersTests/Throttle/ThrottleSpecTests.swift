import Testing
@testable import LaunchTiers

/// Specs, bandwidths and mechanism names: pure values, no cgroup needed.
@Suite struct ThrottleSpecTests {
    @Test(arguments: [0.5, 0, -1, .nan, .infinity, -.infinity, 1000.5, 1e300, -.nan])
    func aBadFactorIsAnErrorNotATrap(_ factor: Double) {
        #expect(throws: TierError.self) { try RunThrottle.make(ThrottleSpec(cpuFactor: factor)) }
        #expect(throws: TierError.self) { try RunThrottle.make(ThrottleSpec(cpuFactor: factor), forcing: .signals) }
    }

    @Test func theErrorNamesTheFactorAndTheRange() {
        #expect(throws: TierError.throttle(.factorOutOfRange(0.5))) { try ThrottleSpec(cpuFactor: 0.5).validate() }
        #expect(TierError.throttle(.factorOutOfRange(0.5)).description == "the cpu factor 0.5 is out of range: it must be from 1 to 1000")
    }

    @Test(arguments: [0, -1, 1000, (1 << 20) - 1, (1 << 40) + 1, Int.max, Int.min])
    func aBadMemoryLimitIsAnError(_ bytes: Int) {
        #expect(throws: TierError.throttle(.memoryLimitOutOfRange(bytes))) { try ThrottleSpec(cpuFactor: 2, memoryLimit: bytes).validate() }
        #expect(throws: TierError.self) { try RunThrottle.make(ThrottleSpec(cpuFactor: 2, memoryLimit: bytes)) }
    }

    @Test func theLimitsOfTheRangesAreAccepted() throws {
        try ThrottleSpec(cpuFactor: 1).validate()
        try ThrottleSpec(cpuFactor: 1000, memoryLimit: 1 << 20).validate()
        try ThrottleSpec(cpuFactor: 59, memoryLimit: 1 << 40).validate()
    }

    @Test func aMemoryLimitNeedsACgroup() {
        #expect(throws: TierError.throttle(.memoryLimitNeedsCgroup(reason: "the signals mechanism was asked for"))) {
            try RunThrottle.make(ThrottleSpec(cpuFactor: 4, memoryLimit: 40 << 20), forcing: .signals)
        }
    }

    @Test func theBandwidthIsAOneMillisecondQuotaPerFactorMilliseconds() {
        let f59 = CPUBandwidth(factor: 59)
        #expect(f59.quotaMicroseconds == 1000)
        #expect(f59.periodMicroseconds == 59_000)
        #expect(f59.v1Quota == "1000" && f59.v1Period == "59000")
        #expect(f59.v2Max == "1000 59000")
        #expect(f59.effectiveFactor == 59)
        #expect(f59.summary == "1 ms of CPU per 59 ms")
        #expect(CPUBandwidth(factor: 1.5).periodMicroseconds == 1500)
        #expect(CPUBandwidth(factor: 1.5).summary == "1 ms of CPU per 1.5 ms")
        #expect(CPUBandwidth(factor: 1000).periodMicroseconds == CPUBandwidth.periodRange.upperBound)
        #expect(CPUBandwidth(factor: 117.64).periodMicroseconds == 117_640)
    }

    @Test func aDeviceOfSeveralCoresGetsAQuotaPerCore() {
        let two = CPUBandwidth(factor: 16, cores: 2)
        #expect(two.quotaMicroseconds == 2000 && two.periodMicroseconds == 16_000)
        #expect(two.v1Quota == "2000" && two.v2Max == "2000 16000")
        // Each of up to two threads computing at once is slowed by F, not 2 F.
        #expect(two.effectiveFactor == 16)
        #expect(two.summary == "2 ms of CPU per 16 ms")
        #expect(CPUBandwidth(factor: 16).quotaMicroseconds == 1000)
        #expect(CPUBandwidth(factor: 16, cores: 0).quotaMicroseconds == 1000)
    }

    @Test(arguments: [0, -1, 257, Int.max, Int.min])
    func aBadCoreCountIsAnError(_ cores: Int) {
        #expect(throws: TierError.throttle(.coresOutOfRange(cores))) { try ThrottleSpec(cpuFactor: 2, cores: cores).validate() }
        #expect(throws: TierError.self) { try RunThrottle.make(ThrottleSpec(cpuFactor: 2, cores: cores), forcing: .signals) }
        #expect(TierError.throttle(.coresOutOfRange(cores)).description.hasSuffix("it must have from 1 to 256"))
    }

    @Test func theDutyCycleOwesStopsForWhatTheProgramComputedOnTheDevicesCores() {
        let ms: UInt64 = 1_000_000
        // One thread computing all of a 1 ms quantum: (F − 1) ms.
        #expect(DutyCycle.owedStop(factor: 16, cores: 1, wall: ms, cpu: ms) == 15 * ms)
        // Two threads computing at once (2 ms of CPU in 1 ms): one core runs them one after the other…
        #expect(DutyCycle.owedStop(factor: 16, cores: 1, wall: ms, cpu: 2 * ms) == 31 * ms)
        // …two cores side by side.
        #expect(DutyCycle.owedStop(factor: 16, cores: 2, wall: ms, cpu: 2 * ms) == 15 * ms)
        #expect(DutyCycle.owedStop(factor: 16, cores: 2, wall: ms, cpu: 4 * ms) == 31 * ms)
        // A program kept off the CPU by other work for most of its quantum owes only what it computed.
        #expect(DutyCycle.owedStop(factor: 16, cores: 1, wall: 4 * ms, cpu: ms) == 12 * ms)
        #expect(DutyCycle.owedStop(factor: 16, cores: 1, wall: 20 * ms, cpu: ms) == 0)
        // CPU time unknown (a program with children): each thread F times slower.
        #expect(DutyCycle.owedStop(factor: 16, cores: 1, wall: 2 * ms, cpu: nil) == 30 * ms)
    }

    @Test func aFactorOfOneIsNoLimit() {
        let none = CPUBandwidth(factor: 1)
        #expect(none.quotaMicroseconds == nil)
        #expect(none.v1Quota == "-1")
        #expect(none.v2Max == "max 100000")
        #expect(none.effectiveFactor == 1)
        #expect(none.summary == "no CPU limit")
    }

    @Test func outOfRangeFactorsAreClampedNeverTrapped() {
        #expect(CPUBandwidth(factor: .nan).quotaMicroseconds == nil)
        #expect(CPUBandwidth(factor: 1e300).periodMicroseconds == 1_000_000)
        #expect(CPUBandwidth(factor: -5).quotaMicroseconds == nil)
        #expect(DutyCycle(group: 0, factor: .infinity).stopNanoseconds == 0)
        #expect(DutyCycle(group: 0, factor: 1e300).stopNanoseconds == 999 * DutyCycle.quantumNanoseconds)
    }

    @Test func theDutyCycleRunsOneQuantumInFAndCentresTheLastOne() {
        let cycle = DutyCycle(group: 0, factor: 16)
        #expect(cycle.runNanoseconds == 500_000)
        #expect(cycle.stopNanoseconds == 7_500_000)
        // The first stop is longer by half a quantum's stop: a program ends anywhere in its last quantum.
        #expect(cycle.centringNanoseconds == 3_750_000)
    }

    @Test func mechanismsHaveOptionNames() {
        for mechanism in ThrottleMechanism.allCases {
            #expect(ThrottleMechanism(optionName: mechanism.optionName) == mechanism)
        }
        #expect(ThrottleMechanism(optionName: "cgroup-v3") == nil)
        #expect(ThrottleMechanism.signals.rawValue == "SIGSTOP/SIGCONT duty cycling")
        #expect(!ThrottleMechanism.signals.usesCgroup && ThrottleMechanism.cgroupV1.usesCgroup)
    }
}
