import LaunchprofTestSupport
import Synchronization
import Testing
@testable import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// Each system counter measured for a phase that does a known thing (docs/counters.md): reading
/// bytes, touching fresh pages, sleeping, spinning, and waiting for a CPU behind a competitor.
@Suite struct PhaseCountersTests {
    /// A recorder with counters on, used on the calling thread.
    func recorder() -> PhaseRecorder {
        let recorder = PhaseRecorder(clock: LaunchClock.startNow())
        recorder.recordsCounters = true
        return recorder
    }

    func counters(_ recorder: PhaseRecorder, _ name: String) throws -> (PhaseRecord, PhaseCounters) {
        let phase = try #require(recorder.phaseRecords().first { $0.name == name })
        return (phase, try #require(phase.counters, "\(name) has counters"))
    }

    @Test func aPhaseThatReadsNBytesSeesAtLeastN() throws {
        let path = TemporaryDirectory.uniquePath("counters-read")
        let size = 300_000
        try FileIO.writeAtomically([UInt8](repeating: 7, count: size), to: path)
        defer { unlink(path) }
        let recorder = recorder()
        let read = try recorder.phase("reading") { try FileIO.read(path, limit: .result) }
        #expect(read.count == size)
        let (_, c) = try counters(recorder, "reading")
        let bytes = try #require(c.bytesRead, "/proc/thread-self/io is readable here")
        #expect(bytes >= size)
        // The recorder's own reads of /proc are left out: a phase that reads nothing reads 0 bytes.
        recorder.phase("nothing") {}
        #expect(try counters(recorder, "nothing").1.bytesRead == 0)
    }

    @Test func aPhaseThatWritesSeesItsBytesWritten() throws {
        let path = TemporaryDirectory.uniquePath("counters-write")
        defer { unlink(path) }
        let recorder = recorder()
        try recorder.phase("writing") { try FileIO.writeAtomically([UInt8](repeating: 1, count: 100_000), to: path) }
        #expect(try #require(try counters(recorder, "writing").1.bytesWritten) >= 100_000)
    }

    @Test func aPhaseThatTouchesFreshPagesHasMinorFaults() throws {
        let recorder = recorder()
        let pages = 256
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        recorder.phase("touching") {
            let memory = mmap(nil, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
            let bytes = memory.assumingMemoryBound(to: UInt8.self)
            for i in 0..<pages { bytes[i * page] = 1 }
            munmap(memory, pages * page)
        }
        let (_, c) = try counters(recorder, "touching")
        #expect(c.minorFaults >= pages / 2, "each fresh page faults once (fault-around may serve a few: at least half)")
        #expect(c.majorFaults == 0, "anonymous memory is never read from storage")
    }

    @Test func aPhaseThatSleepsIsBlockedNotWaitingOrRunning() throws {
        let recorder = recorder()
        recorder.phase("sleeping") { usleep(100_000) }
        let (phase, c) = try counters(recorder, "sleeping")
        #expect(c.voluntarySwitches >= 1, "sleeping gives up the CPU")
        #expect(c.cpuTime < 0.05)
        // However loaded the machine, the 100 ms asleep are neither running nor waiting for a CPU.
        #expect(c.blocked(duration: phase.duration) >= 0.099)
    }

    @Test func aPhaseThatSpinsRunsOnACPU() throws {
        let recorder = recorder()
        recorder.phase("spinning") {
            let start = MonotonicClock.threadCPUNanoseconds()
            while MonotonicClock.threadCPUNanoseconds() - start < 30_000_000 {}
        }
        let (phase, c) = try counters(recorder, "spinning")
        #expect(c.cpuTime >= 0.03)
        #expect(c.cpuTime <= phase.duration + 0.001, "a thread cannot run longer than the phase's wall time")
        #expect(c.voluntarySwitches == 0, "spinning never blocks")
    }

    @Test func aPhaseBehindACompetitorOnItsCPUWaitsForIt() throws {
        // This thread and a spinning competitor pinned to the same CPU: the scheduler shares it, so
        // the phase waits for the CPU about half its time (the busy-machine rule's 15% is far below).
        // sched_getaffinity and sched_setaffinity are GNU extensions Glibc's module leaves out: by name.
        let affinity = try #require(Affinity())
        var original = cpu_set_t()
        #expect(affinity.get(0, MemoryLayout<cpu_set_t>.size, &original) == 0)
        defer { _ = affinity.set(0, MemoryLayout<cpu_set_t>.size, &original) }
        let cpu = affinity.currentCPU()
        #expect(Self.pin(to: cpu) == 0)
        let box = Box(cpu: cpu)
        var competitor = pthread_t()
        let context = Unmanaged.passRetained(box).toOpaque()
        #expect(
            pthread_create(
                &competitor, nil,
                { raw in
                    let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                    _ = PhaseCountersTests.pin(to: box.cpu)
                    box.started.store(true, ordering: .releasing)
                    while !box.stop.load(ordering: .acquiring) {}
                    return nil
                }, context) == 0)
        while !box.started.load(ordering: .acquiring) { sched_yield() }
        let recorder = recorder()
        recorder.phase("sharing a CPU") {
            let start = MonotonicClock.threadCPUNanoseconds()
            while MonotonicClock.threadCPUNanoseconds() - start < 60_000_000 {}
        }
        box.stop.store(true, ordering: .releasing)
        pthread_join(competitor, nil)
        let (phase, c) = try counters(recorder, "sharing a CPU")
        let share = try #require(c.runnableShare(duration: phase.duration), "schedstat is readable here")
        #expect(share > 0.15, "waited \(share) of the phase for the competitor's CPU")
        #expect(c.involuntarySwitches >= 1, "the competitor preempted it")
    }

    final class Box: Sendable {
        let cpu: Int32
        let started = Atomic(false)
        let stop = Atomic(false)
        init(cpu: Int32) { self.cpu = cpu }
    }

    /// The calling thread pinned to `cpu`: 0 on success.
    static func pin(to cpu: Int32) -> Int32 {
        guard let affinity = Affinity() else { return -1 }
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { raw in
            for i in raw.indices { raw[i] = 0 }
            raw[Int(cpu) / 8] |= UInt8(1) << UInt8(Int(cpu) % 8)
        }
        return affinity.set(0, MemoryLayout<cpu_set_t>.size, &set)
    }

    /// glibc's `sched_getaffinity`, `sched_setaffinity` and `sched_getcpu`, looked up by name.
    struct Affinity {
        typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        let get: Call, set: Call
        let currentCPU: @convention(c) () -> Int32

        init?() {
            let process = dlopen(nil, RTLD_NOW)
            guard let get = dlsym(process, "sched_getaffinity"), let set = dlsym(process, "sched_setaffinity"),
                let cpu = dlsym(process, "sched_getcpu")
            else { return nil }
            self.get = unsafeBitCast(get, to: Call.self)
            self.set = unsafeBitCast(set, to: Call.self)
            currentCPU = unsafeBitCast(cpu, to: (@convention(c) () -> Int32).self)
        }
    }

    @Test func countersTravelThroughTheProtocol() throws {
        let counters = PhaseCounters(
            cpuTime: 0.012, runnableTime: 0.003, minorFaults: 40, majorFaults: 2, voluntarySwitches: 1, involuntarySwitches: 3,
            bytesRead: 4096, bytesWritten: 12)
        var parser = ProtocolParser(spawnReading: 1_000)
        for line in [
            "launchprof 1", "begin 2000 0 io reading", "end 3000 0 reading",
            "stats 0 rss=100 " + ProtocolWriter.countersFields(counters).joined(separator: " ") + " future=1", "done 4000"
        ] {
            try parser.consume(Substring(line))
        }
        #expect(parser.run(index: 1, pid: nil).phases[0].counters == counters)
    }

    @Test func aStatsLineWithPartOfTheCountersIsAnError() throws {
        var parser = ProtocolParser(spawnReading: 1_000)
        for line in ["launchprof 1", "begin 2000 0 - a", "end 3000 0 a"] { try parser.consume(Substring(line)) }
        #expect(
            throws: CoreError.protocolLine(
                line: 4, reason: "stats with system counters must carry cpu, minflt, majflt, vcsw and ivcsw together (docs/protocol.md)")
        ) {
            try parser.consume("stats 0 cpu=100 majflt=1")
        }
    }

    @Test func withoutCountersAPhaseHasNone() throws {
        let recorder = PhaseRecorder(clock: LaunchClock.startNow())
        recorder.phase("plain") {}
        #expect(recorder.phaseRecords()[0].counters == nil, "never 0 for not measured")
    }

    @Test func ioFileNumbersAreParsed() {
        let text = Array("rchar: 1234\nwchar: 56\nsyscr: 7\n".utf8)
        let numbers = text.withUnsafeBytes { ThreadRunDelay.firstTwoNumbers($0) }
        #expect(numbers.0 == 1234 && numbers.1 == 56)
    }
}
