import LaunchprofTestSupport
import Foundation
import LaunchCore
import LaunchFlameGraphs
import LaunchFunctions
import Testing

@testable import LaunchSampling

/// Samples placed on runs, threads and phases by their CLOCK_MONOTONIC times, and summed per phase.
struct SamplePlacementTests {
    static let noDemangler = Demangler(swift: nil, cplusplus: nil)
    static let origin: UInt64 = 50_000_000_000

    /// A run spawned at `origin`: process start [0, 10 ms), main-thread `loading` [10, 50 ms) with
    /// `loading/parsing` [20, 30 ms), a worker (thread 1) `decoding` [15, 45 ms).
    static func record(index: Int = 1, pid: Int = 100, origin: UInt64 = origin) -> RunRecord {
        var record = RunRecord(
            index: index, pid: pid, total: 0.05,
            phases: [
                PhaseRecord(name: "process start", start: 0, duration: 0.010),
                PhaseRecord(name: "loading", start: 0.010, duration: 0.040),
                PhaseRecord(name: "parsing", start: 0.020, duration: 0.010, depth: 1, parent: 1),
                PhaseRecord(name: "decoding", start: 0.015, duration: 0.030, thread: 1)
            ])
        record.spawnReading = origin
        return record
    }

    static func sample(pid: Int = 100, tid: Int = 100, ms: Double, origin: UInt64 = origin, _ stack: [String]) -> PerfSample {
        PerfSample(
            pid: pid, tid: tid, nanoseconds: origin + UInt64(ms * 1e6),
            frames: stack.reversed().map { PerfFrame(address: 1, symbol: $0, object: "/app/bin") })
    }

    @Test func samplesLandInTheInnermostPhaseOfTheirThread() {
        var collection = SampleCollection(records: [Self.record()], selfPid: 1)
        for sample in [
            Self.sample(ms: 5, ["_start", "_dl_start"]),
            Self.sample(ms: 25, ["main", "load", "parse"]),
            Self.sample(ms: 40, ["main", "load"]),
            Self.sample(tid: 101, ms: 20, ["start_thread", "decode"]),
            Self.sample(tid: 101, ms: 30, ["start_thread", "decode"]),
            Self.sample(ms: 60, ["main", "idle"]),
            // launchprof's own (pid 1) and one before the first spawn are dropped.
            Self.sample(pid: 1, tid: 1, ms: 25, ["poll"]),
            PerfSample(pid: 100, tid: 100, nanoseconds: Self.origin - 1, frames: [])
        ] {
            collection.add(sample)
        }
        let placed = collection.placed()[0]
        #expect(placed.count == 6)
        #expect(placed.map(\.phase) == [0, 3, 2, 3, 1, nil])
        #expect(placed.map(\.thread) == [0, 1, 0, 1, 0, 0])
        #expect(placed.map(\.seconds) == [0.005, 0.020, 0.025, 0.030, 0.040, 0.060])
    }

    @Test func eachSampleBelongsToTheRunWhoseSpawnCameLast() {
        let second = Self.origin + 1_000_000_000
        var collection = SampleCollection(records: [Self.record(index: 1, pid: 100), Self.record(index: 2, pid: 200, origin: second)], selfPid: 1)
        collection.add(Self.sample(ms: 25, ["main"]))
        collection.add(Self.sample(pid: 200, tid: 200, ms: 25, origin: second, ["main"]))
        // A process the run started (a shell's child) counts for the run, in no phase.
        collection.add(Self.sample(pid: 201, tid: 201, ms: 30, origin: second, ["child"]))
        let placed = collection.placed()
        #expect(placed[0].map(\.phase) == [2])
        #expect(placed[1].map(\.phase) == [2, nil])
        #expect(placed[1].map(\.inLaunchedProcess) == [true, false])
        #expect(placed[1].map(\.thread) == [0, -1])
    }

    @Test func phasesCountTheirChildrensSamplesAndRankFunctionsBySelfSamples() throws {
        var collection = SampleCollection(records: [Self.record()], selfPid: 1)
        for ms in [21.0, 22, 23] { collection.add(Self.sample(ms: ms, ["main", "load", "parse"])) }
        collection.add(Self.sample(ms: 35, ["main", "load"]))
        collection.add(Self.sample(ms: 60, ["main", "idle"]))
        let summary = SampleSummary(collection, demangler: Self.noDemangler)
        let profiles = summary.profiles(setup: SamplingSetup(perf: "/usr/bin/perf", event: "cpu-clock", rate: 1000))
        #expect(profiles.samples == 5 && profiles.outsidePhases == 1 && profiles.runs == 1 && profiles.rate == 1000)
        #expect(profiles.phases.map(\.phase) == ["loading", "loading/parsing"])
        let loading = try #require(profiles.phase("loading"))
        #expect(loading.total == 4)
        #expect(loading.functions.map(\.name) == ["parse", "load", "main"])
        #expect(loading.functions.map(\.selfCost) == [3, 1, 0])
        #expect(loading.functions.map(\.inclusiveCost) == [3, 4, 4])
        #expect(profiles.phase("loading/parsing")?.total == 3)
        // The stacks for flame graphs, root first, weighted by samples.
        let stacks = summary.stackProfile()
        #expect(stacks.unit == .samples)
        #expect(stacks.phases.map(\.phase) == ["loading", "loading/parsing"])
        #expect(
            stacks.phase("loading")?.stacks == [WeightedStack(frames: ["main", "load"], weight: 1), WeightedStack(frames: ["main", "load", "parse"], weight: 3)]
        )
        #expect(stacks.phase("loading")?.totalWeight == UInt64(loading.total))
        // The timeline: the run's samples in time, their stacks as nodes.
        let timeline = try #require(profiles.timeline)
        #expect(timeline.samples.count == 5)
        #expect(timeline.frames(of: Int(timeline.samples[0][2])) == ["main", "load", "parse"])
        #expect(timeline.frames(of: Int(timeline.samples[4][2])) == ["main", "idle"])
    }

    @Test func unknownFramesOfABrokenChainAreDroppedAndAddressesNamedWithTheirFile() {
        var collection = SampleCollection(records: [Self.record()], selfPid: 1)
        collection.add(
            PerfSample(
                pid: 100, tid: 100, nanoseconds: Self.origin + 25_000_000,
                frames: [
                    PerfFrame(address: 0x6094, symbol: nil, object: "/usr/lib/libpng16.so.16"),
                    PerfFrame(address: 0x10, symbol: "main", object: "/app/bin"), PerfFrame(address: 0, symbol: nil, object: nil)
                ]))
        let summary = SampleSummary(collection, demangler: Self.noDemangler)
        let functions = summary.profiles(setup: SamplingSetup(perf: "p", event: "cpu-clock", rate: 100)).phase("loading")?.functions ?? []
        #expect(functions.map(\.name) == ["libpng16.so.16 0x6094", "main"])
        #expect(functions.map(\.inProgram) == [false, true])
    }

    @Test func resultFieldIsCompactAndReadBack() throws {
        let profiles = SampleProfiles(
            rate: 4000, event: "cpu-clock", runs: 2, samples: 10, outsidePhases: 1,
            phases: [
                PhaseSamples(
                    phase: "drawing", total: 9, functions: [FunctionCost(name: "blit", inProgram: true, selfCost: 5, inclusiveCost: 7)],
                    functionCount: 3)
            ],
            timeline: SampleTimeline(run: 1, names: ["main", "blit"], nodes: [[0, -1], [1, 0]], samples: [[0.0125, 0, 1]]))
        let data = try JSONEncoder().encode(profiles)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#"["blit","p",5,7]"#), "\(text)")
        #expect(text.contains(#""samples":9"#) && !text.contains("total"), "a phase's samples under their unit's name: \(text)")
        #expect(try JSONDecoder().decode(SampleProfiles.self, from: data) == profiles)
        let bad = text.replacingOccurrences(of: #"["blit","p",5,7]"#, with: #"["blit","p",8,7]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SampleProfiles.self, from: Data(bad.utf8)) }
        // A node table with a cycle or an index out of range gives no frames rather than hanging.
        #expect(SampleTimeline(run: 1, names: ["a"], nodes: [[0, 0]], samples: []).frames(of: 0) == ["a"])
        #expect(SampleTimeline(run: 1, names: ["a"], nodes: [[5, 1]], samples: []).frames(of: 0) == ["?"])
        #expect(SampleTimeline(run: 1, names: [], nodes: [], samples: []).frames(of: 3) == [])
    }

    @Test func setupSaysWhatToChangeWhenPerfCannotRecord() throws {
        let directory = TemporaryDirectory.uniquePath("sampling")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = SamplingSetup.check(rate: 4000, path: directory)
        #expect(
            missing
                == .failure(
                    .unavailable(
                        "--sample records the launch with perf, and perf is not installed: install it with `sudo apt-get install linux-perf` (or `make setup`)")
                ))
        let perf = directory + "/perf", paranoid = directory + "/paranoid"
        try FileIO.writeAtomically("#!/bin/sh\n", to: perf)
        chmod(perf, 0o755)
        try FileIO.writeAtomically("3\n", to: paranoid)
        guard case .failure(let error) = SamplingSetup.check(rate: 4000, path: directory, paranoidFile: paranoid, root: false) else {
            Issue.record("paranoid 3 was accepted")
            return
        }
        #expect(error.description.contains("kernel.perf_event_paranoid is 3") && error.description.contains("sudo sysctl kernel.perf_event_paranoid=2"))
        try FileIO.writeAtomically("2\n", to: paranoid)
        #expect(
            SamplingSetup.check(rate: 4000, path: directory, paranoidFile: paranoid, root: false)
                == .success(SamplingSetup(perf: perf, event: "cpu-clock:u", rate: 4000)))
        #expect(
            SamplingSetup.check(rate: 4000, path: directory, paranoidFile: paranoid, root: true)
                == .success(SamplingSetup(perf: perf, event: "cpu-clock", rate: 4000)))
        #expect(SamplingSetup(perf: perf, event: "cpu-clock", rate: 4000).periodNanoseconds == 250_000)
    }
}
