import Testing
@testable import LaunchDoctor
import LaunchCore
import LaunchStats

/// A made-up machine: files, directories, tools and probes as each test sets them.
final class FakeSystem: DoctorSystem {
    var files: [String: String] = [:]
    var directories: [String: [String]] = [:]
    var tools: [String: String] = [:]
    var cores = 2
    var ticksPerSecond = 100.0
    var eviction: Bool? = true
    var throttle: (mechanism: String, usesCgroup: Bool, fallback: String?) = ("cgroup v2 cpu.max", true, nil)
    /// The process lists returned one after the other (the last again when they run out).
    var processLists: [[ProcessSample]] = [[]]
    var paused: [Double] = []
    /// The core's clock readings (GHz), and the clock the cached calibration saw.
    var clocks: [Double] = [4.40, 4.41, 4.39, 4.40]
    var calibrated: (gigahertz: Double, made: String)? = nil
    var clockAsked: (count: Int, seconds: Double)? = nil

    func read(_ path: String) -> String? { files[path] }
    func entries(of directory: String) -> [String] { directories[directory] ?? [] }
    func executable(_ name: String) -> String? { tools[name] }
    func pageCacheEvictionWorks() -> Bool? { eviction }
    func throttleProbe() -> (mechanism: String, usesCgroup: Bool, fallback: String?) { throttle }
    func processes() -> [ProcessSample] { processLists.count > 1 ? processLists.removeFirst() : processLists[0] }
    func pause(_ seconds: Double) { paused.append(seconds) }
    func clockReadings(count: Int, seconds: Double) -> [Double] {
        clockAsked = (count, seconds)
        return clocks
    }
    func calibrationClock() -> (gigahertz: Double, made: String)? { calibrated }
}

@Suite struct DoctorTests {
    func doctor(_ configure: (FakeSystem) -> Void) -> Doctor {
        let system = FakeSystem()
        configure(system)
        return Doctor(system: system)
    }

    @Test func loadAboveSevenTenthsACoreIsAWarningWithAdvice() {
        let busy = doctor { $0.files["/proc/loadavg"] = "8.45 2.75 1.05 3/400 1234\n" }.load()
        #expect(busy.status == .warning)
        #expect(busy.summary == "load average 8.45 on 2 cores (4.22 a core): other work competes with the launches")
        #expect(busy.advice.contains("--baseline-manifest"))
        let idle = doctor { $0.files["/proc/loadavg"] = "0.20 0.30 0.40 1/100 99\n" }.load()
        #expect(idle.status == .ok && idle.advice.isEmpty)
        #expect(doctor { _ in }.load().status == .note)
    }

    @Test func busyProcessesAreNamedBusiestFirst() {
        let system = FakeSystem()
        system.processLists = [
            [.init(pid: 10, name: "swift-frontend", ticks: 1000), .init(pid: 11, name: "bash", ticks: 5), .init(pid: 12, name: "cc1", ticks: 0)],
            [.init(pid: 10, name: "swift-frontend", ticks: 1045), .init(pid: 11, name: "bash", ticks: 6), .init(pid: 12, name: "cc1", ticks: 30)]
        ]
        let findings = Doctor(system: system).busyProcesses(seconds: 0.5)
        #expect(system.paused == [0.5])
        #expect(findings.count == 1)
        #expect(findings[0].status == .warning)
        #expect(findings[0].summary == "2 processes busy during the sample: swift-frontend (pid 10, 90%), cc1 (pid 12, 60%)")
        // A pid reused by another program in between is not counted.
        let reused = FakeSystem()
        reused.processLists = [[.init(pid: 10, name: "a", ticks: 0)], [.init(pid: 10, name: "b", ticks: 100)]]
        #expect(Doctor(system: reused).busyProcesses().first?.status == .ok)
        #expect(doctor { $0.processLists = [[]] }.busyProcesses().first?.status == .note)
    }

    @Test func aScalingGovernorOrTurboIsAWarningAndInvisibleScalingANote() {
        func cpus(_ system: FakeSystem, _ governors: [String]) {
            system.directories["/sys/devices/system/cpu"] = governors.indices.map { "cpu\($0)" } + ["cpufreq", "online"]
            for (i, g) in governors.enumerated() { system.files["/sys/devices/system/cpu/cpu\(i)/cpufreq/scaling_governor"] = g + "\n" }
        }
        let scaling = doctor { cpus($0, ["powersave", "powersave"]) }.cpuFrequency()
        #expect(scaling.status == .warning)
        #expect(scaling.summary.hasPrefix("governor powersave on 2 CPUs"))
        #expect(scaling.advice.contains("cpupower frequency-set -g performance"))
        let fixed = doctor { cpus($0, ["performance", "performance"]) }.cpuFrequency()
        #expect(fixed.status == .ok)
        let turbo = doctor {
            cpus($0, ["performance"])
            $0.files["/sys/devices/system/cpu/intel_pstate/no_turbo"] = "0\n"
        }.cpuFrequency()
        #expect(turbo.status == .warning && turbo.summary.contains("turbo boost on"))
        let hidden = doctor { $0.directories["/sys/devices/system/cpu"] = ["cpu0", "cpu1"] }.cpuFrequency()
        #expect(hidden.status == .note && hidden.summary.contains("not visible"))
    }

    @Test func aCoreClockThatMovesOrLeftTheCalibrationsIsAWarning() throws {
        let system = FakeSystem()
        let steady = Doctor(system: system).clock()
        #expect(system.clockAsked?.count == 10 && system.clockAsked?.seconds == 1)
        #expect(steady.status == .ok && steady.advice.isEmpty)
        #expect(steady.summary == "the core's clock read 4.39–4.41 GHz over 1.0 s (4 readings, dependent additions): 0.5% apart")

        // A shared VM's host under load: the clock moves 6% within the second.
        let moving = doctor { $0.clocks = [4.45, 4.20, 4.31, 4.44] }.clock()
        #expect(moving.status == .warning)
        #expect(moving.summary.hasPrefix("the core's clock read 4.20–4.45 GHz over 1.0 s (4 readings, dependent additions): 6.0% apart"))
        #expect(moving.advice.contains("--baseline-manifest") && moving.advice.contains("tiers --calibrate"))
        let json = try JSONParser.parse(Array(DoctorReport.json([moving]).utf8))
        let finding = try #require(json.object?["findings"]?.array?.first?.object)
        #expect(finding["id"]?.string == "cpu-clock" && finding["status"]?.string == "warning")
        #expect(finding["summary"]?.string == moving.summary && finding["advice"]?.string == moving.advice)

        // Steady now, but 5% slower than when the calibration was made: a throttled program's phases run 5% longer.
        let slower = doctor {
            $0.clocks = [4.18, 4.19, 4.18]
            $0.calibrated = (4.41, "2026-11-26T05:00:00Z")
        }.clock()
        #expect(slower.status == .warning)
        #expect(
            slower.summary.contains(
                "5.0% slower than when this host's calibration was made (2026-11-26T05:00:00Z, 4.41 GHz), so on a tier a program's phases (exec --tier) now run about that much longer than then (the built-in app's are stretched at the clock each run reads)"
            ))
        let near = doctor { $0.calibrated = (4.43, "2026-11-26T05:00:00Z") }.clock()
        #expect(near.status == .ok && near.summary.contains("0.5% slower than when"))

        // No thread CPU clock (or nonsense readings): said, not guessed.
        #expect(doctor { $0.clocks = [] }.clock().status == .note)
        #expect(doctor { $0.clocks = [.nan, 0] }.clock().status == .note)
    }

    @Test func cgroupsThatCannotThrottleAreAWarning() {
        #expect(doctor { _ in }.cgroups().status == .ok)
        let none = doctor { $0.throttle = ("SIGSTOP/SIGCONT duty cycling", false, "cgroup v2: permission denied") }.cgroups()
        #expect(none.status == .warning)
        #expect(none.summary.contains("cgroup v2: permission denied") && none.summary.contains("SIGSTOP/SIGCONT"))
        #expect(!none.advice.isEmpty)
    }

    @Test func valgrindAndPerfPresentAbsentOrRestricted() {
        #expect(doctor { _ in }.valgrind().status == .note)
        #expect(doctor { $0.tools["valgrind"] = "/usr/bin/valgrind" }.valgrind().status == .ok)
        #expect(doctor { _ in }.perf().summary.hasPrefix("perf is not installed"))
        let restricted = doctor {
            $0.tools["perf"] = "/usr/bin/perf"
            $0.files["/proc/sys/kernel/perf_event_paranoid"] = "3\n"
            $0.files["/proc/self/status"] = "Name:\tx\nUid:\t1000\t1000\t1000\t1000\n"
        }.perf()
        #expect(restricted.status == .warning && restricted.advice.contains("perf_event_paranoid"))
        let virtual = doctor {
            $0.tools["perf"] = "/usr/bin/perf"
            $0.files["/proc/sys/kernel/perf_event_paranoid"] = "3\n"
            $0.files["/proc/self/status"] = "Uid:\t0\t0\t0\t0\n"
            $0.directories["/sys/bus/event_source/devices"] = ["software", "tracepoint"]
        }.perf()
        #expect(virtual.status == .note && virtual.summary.contains("without hardware counters"))
        let full = doctor {
            $0.tools["perf"] = "/usr/bin/perf"
            $0.files["/proc/sys/kernel/perf_event_paranoid"] = "1\n"
            $0.directories["/sys/bus/event_source/devices"] = ["cpu", "software"]
        }.perf()
        #expect(full.status == .ok)
    }

    @Test func aPageCacheThatKeepsEvictedPagesIsAProblem() {
        #expect(doctor { _ in }.pageCache().status == .ok)
        let kept = doctor { $0.eviction = false }.pageCache()
        #expect(kept.status == .problem && kept.summary.contains("--cold launches are in fact warm"))
        #expect(doctor { $0.eviction = nil }.pageCache().status == .note)
    }

    @Test func theReportPutsTheVerdictFirstAndEscapesJSON() throws {
        let findings = [
            Finding(id: "load", status: .warning, summary: "load \"high\"", advice: "wait"),
            Finding(id: "valgrind", status: .ok, summary: "fine")
        ]
        let text = DoctorReport.text(findings)
        #expect(text.hasPrefix("launchprof doctor: 1 warning\n[warning] load: load \"high\"\n    do: wait\n[ok] valgrind: fine\n"))
        let json = try JSONParser.parse(Array(DoctorReport.json(findings).utf8))
        #expect(json.object?["findings"]?.array?.first?.object?["summary"]?.string == "load \"high\"")
        #expect(DoctorReport.verdict([]) == "launchprof doctor: nothing in the way of measuring here")
    }

    @Test func theRealMachineGivesEveryFindingOnce() {
        let ids = Doctor(system: LiveSystem()).findings().map(\.id)
        #expect(ids == ["load", "busy-processes", "cpu-frequency", "cpu-clock", "cgroups", "valgrind", "perf", "page-cache"])
    }
}

@Suite struct LaunchSpreadTests {
    @Test func aQuietLaunchDetectsSmallChangesAndANoisyOneOnlyLargeOnes() throws {
        // 50 ms ± about 1%: the gate reaches its 200-run cap and detects little more than the 5% threshold.
        let quiet = try #require(LaunchSpread(totals: [0.050, 0.0505, 0.0495, 0.0502, 0.0498, 0.0501, 0.0499, 0.0503, 0.0497, 0.050]))
        #expect(quiet.pairsWithin(maxRuns: 200, maxTime: 120, overhead: 0.002) == 200)
        let small = quiet.detectableChange(pairs: 200)
        #expect(small > 0.0025 && small < 0.0027, "threshold 2.5 ms plus a little: \(small)")
        let findings = quiet.findings()
        #expect(findings.map(\.status) == [.ok, .ok])
        #expect(findings[1].summary.contains("at its budget of 200 runs a side"))
        // ±20%: the same budget detects only a much larger change, and says so.
        let noisy = try #require(LaunchSpread(totals: [0.05, 0.06, 0.04, 0.07, 0.03, 0.05, 0.065, 0.035, 0.05, 0.045]))
        #expect(noisy.detectableChange(pairs: 200) > small)
        #expect(noisy.findings().map(\.status) == [.warning, .warning])
        // A slow launch: the time budget, not the run cap, sets the pairs.
        let slow = try #require(LaunchSpread(totals: Array(repeating: 1.0, count: 4) + [1.01, 0.99]))
        #expect(slow.pairsWithin(maxRuns: 200, maxTime: 120, overhead: 0) == 60)
        #expect(LaunchSpread(totals: [0.05, 0.05, 0.05, 0.05]) == nil, "fewer than 5 runs")
    }

    @Test func aTiersSpreadSaysWhatAStoredBaselineCheckCanSeeOnIt() throws {
        // 800 ms ± about 1% on a tier: a 20-run median moves by ~0.3%, and a check sees little over its 5%.
        let steady = try #require(LaunchSpread(totals: [0.800, 0.808, 0.792, 0.804, 0.796, 0.801, 0.799, 0.806, 0.794, 0.800]))
        let ok = steady.tierFinding(tier: "iphone-3gs")
        #expect(ok.id == "tier-spread" && ok.status == .ok)
        #expect(ok.summary.hasPrefix("on iphone-3gs, 10 runs of the default launch: median 800 ms, robust spread ±"))
        #expect(ok.summary.contains("a check against a stored baseline (20 runs a side) can see a slowdown of about 5."), "\(ok.summary)")
        // Two modes 25% apart (a tier's runs on a noisy host): the median moves by a few percent alone,
        // though the median absolute deviation is small, and only a large change is seen.
        let noisy = try #require(LaunchSpread(totals: [0.66, 0.84, 0.88, 0.89, 0.85, 0.87, 0.70, 0.86, 0.66, 0.82, 0.83, 0.85]))
        let warned = noisy.tierFinding(tier: "iphone-3gs")
        #expect(warned.status == .warning)
        #expect(warned.summary.hasSuffix("smaller regressions on this tier pass unnoticed"))
        #expect(warned.advice.contains("--baseline-manifest"))
        // More runs a side make a median that moves less, and a smaller change seen.
        func seen(_ finding: Finding) throws -> Double {
            let text = try #require(finding.summary.split(separator: "see a slowdown of about ").last?.split(separator: "%").first)
            return try #require(Double(text))
        }
        #expect(try seen(noisy.tierFinding(tier: "t", runs: 80)) < seen(warned))
        #expect(try seen(warned) > 10 && seen(warned) < 40, "\(warned.summary)")
    }

    @Test func aProcStatLineIsParsedWithAwkwardNames() {
        let line = "4242 (my prog) (x)) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 37 0 0 20 0 1 0 100 1000000 200"
        #expect(ProcessSample.parse(stat: line) == ProcessSample(pid: 4242, name: "my prog) (x)", ticks: 287))
        #expect(ProcessSample.parse(stat: "garbage") == nil)
    }
}
