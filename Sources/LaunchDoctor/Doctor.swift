import LaunchCore
import LaunchExport

/// `launchprof doctor`'s checks: what makes measurements on this machine noisy or impossible,
/// each with what to do (docs/doctor.md). Every check reads the machine through ``DoctorSystem``.
public struct Doctor {
    public let system: any DoctorSystem

    public init(system: any DoctorSystem) {
        self.system = system
    }

    /// Every check that reads the machine (the launch spread is measured by the caller: ``LaunchSpread``).
    public func findings() -> [Finding] {
        [load()] + busyProcesses() + [cpuFrequency(), clock(), cgroups(), valgrind(), perf(), pageCache()]
    }

    /// The 1-minute load average against the cores: above 0.7 a core, other work is competing.
    public func load() -> Finding {
        guard let text = system.read("/proc/loadavg"), let first = text.split(separator: " ").first, let load = Double(first) else {
            return Finding(id: "load", status: .note, summary: "the load average is not readable here (/proc/loadavg)")
        }
        let cores = max(system.cores, 1)
        let perCore = load / Double(cores)
        let summary = "load average \(format(load)) on \(cores) core\(cores == 1 ? "" : "s") (\(format(perCore)) a core)"
        if perCore <= 0.7 { return Finding(id: "load", status: .ok, summary: summary) }
        return Finding(
            id: "load", status: .warning, summary: summary + ": other work competes with the launches",
            advice:
                "measure on an idle machine; else compare both sides now and interleaved (check --baseline-manifest), which a busy machine slows alike, or count instructions (--metric instructions), which load does not move"
        )
    }

    /// Processes that used over 20% of a core during a short sample (`seconds`), busiest first.
    public func busyProcesses(seconds: Double = 0.5) -> [Finding] {
        let before = Dictionary(system.processes().map { ($0.pid, $0) }, uniquingKeysWith: { a, _ in a })
        system.pause(seconds)
        let after = system.processes()
        guard !before.isEmpty, !after.isEmpty else {
            return [Finding(id: "busy-processes", status: .note, summary: "other processes' CPU use is not readable here (/proc)")]
        }
        var busy: [(name: String, pid: Int32, share: Double)] = []
        for sample in after {
            guard let earlier = before[sample.pid], earlier.name == sample.name else { continue }
            let share = Double(sample.ticks - earlier.ticks) / system.ticksPerSecond / seconds
            if share > 0.2 { busy.append((sample.name, sample.pid, share)) }
        }
        busy.sort { $0.share > $1.share }
        guard !busy.isEmpty else { return [Finding(id: "busy-processes", status: .ok, summary: "no other process used over 20% of a core")] }
        let named = busy.prefix(5).map { "\($0.name) (pid \($0.pid), \(Int(($0.share * 100).rounded()))%)" }
        return [
            Finding(
                id: "busy-processes", status: .warning,
                summary: "\(busy.count) process\(busy.count == 1 ? "" : "es") busy during the sample: \(named.joined(separator: ", "))",
                advice: "stop them or wait for them before measuring, or compare interleaved (check --baseline-manifest)")
        ]
    }

    /// The CPU frequency governor (`/sys/devices/system/cpu/cpu*/cpufreq`): a governor that changes
    /// the frequency with load makes the first runs slower than the rest.
    public func cpuFrequency() -> Finding {
        let cpus = system.entries(of: "/sys/devices/system/cpu").filter { $0.hasPrefix("cpu") && Int($0.dropFirst(3)) != nil }.sorted()
        var governors: [String: Int] = [:]
        for cpu in cpus {
            if let governor = system.read("/sys/devices/system/cpu/\(cpu)/cpufreq/scaling_governor")?.trimmed, !governor.isEmpty {
                governors[governor, default: 0] += 1
            }
        }
        guard !governors.isEmpty else {
            return Finding(
                id: "cpu-frequency", status: .note,
                summary: "frequency scaling is not visible here (no cpufreq in /sys: a virtual machine or container); the host may still scale",
                advice: "keep warm-up runs (--warmup), and compare interleaved (check --baseline-manifest) so both sides see the same frequency")
        }
        let list = governors.keys.sorted().map { "\($0) on \(governors[$0]!) CPU\(governors[$0]! == 1 ? "" : "s")" }.joined(separator: ", ")
        let boost =
            system.read("/sys/devices/system/cpu/cpufreq/boost")?.trimmed == "1" || system.read("/sys/devices/system/cpu/intel_pstate/no_turbo")?.trimmed == "0"
        if governors.keys.allSatisfy({ $0 == "performance" }) && !boost {
            return Finding(id: "cpu-frequency", status: .ok, summary: "governor \(list): the frequency holds still")
        }
        var advice = "set the performance governor while measuring (`cpupower frequency-set -g performance`, as root)"
        if boost { advice += " and turn off turbo boost (`echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo`, or 0 > …/cpufreq/boost)" }
        return Finding(
            id: "cpu-frequency", status: .warning,
            summary: "governor \(list)\(boost ? ", turbo boost on" : ""): the frequency follows the load, so runs differ by more than the code does",
            advice: advice)
    }

    /// The core's clock, read `readings` times over about `seconds` (a dependent chain of additions:
    /// one cycle each), and against the clock the cached calibration saw. On a shared virtual machine
    /// the clock follows the whole host's load, with nothing in cpufreq to show it; every CPU-bound
    /// phase moves with it, and on a tier the factor multiplies it (docs/tiers.md, "What still moves a
    /// calibration"). A move of over 3% (what a fresh calibration is held to) is a warning.
    public func clock(readings: Int = 10, seconds: Double = 1) -> Finding {
        let clocks = system.clockReadings(count: readings, seconds: seconds).filter { $0.isFinite && $0 > 0 }
        guard let slowest = clocks.min(), let fastest = clocks.max() else {
            return Finding(id: "cpu-clock", status: .note, summary: "the core's clock could not be probed here (no thread CPU clock)")
        }
        let moved = fastest / slowest - 1
        var summary =
            "the core's clock read \(format(slowest))–\(format(fastest)) GHz over \(SecondsFormat.format(seconds, precision: 1)) s (\(clocks.count) readings, dependent additions): \(percent(moved)) apart"
        var unsteady = moved > Self.clockTolerance
        if let calibration = system.calibrationClock(), calibration.gigahertz > 0 {
            let since = fastest / calibration.gigahertz - 1
            summary +=
                "; \(percent(abs(since))) \(since < 0 ? "slower" : "faster") than when this host's calibration was made (\(calibration.made), \(format(calibration.gigahertz)) GHz)"
            if abs(since) > Self.clockTolerance {
                summary +=
                    ", so on a tier a program's phases (exec --tier) now run about that much \(since < 0 ? "longer" : "shorter") than then (the built-in app's are stretched at the clock each run reads)"
                unsteady = true
            }
        }
        guard unsteady else { return Finding(id: "cpu-clock", status: .ok, summary: summary) }
        return Finding(
            id: "cpu-clock", status: .warning, summary: summary + ": the host's speed is not steady, and times move with it",
            advice:
                "compare both sides now and interleaved (check --baseline-manifest), which the clock moves alike, or count instructions (--metric instructions); on a tier, record the baseline and check it in the same quiet hour, and calibrate (`launchprof tiers --calibrate`) when the clock holds still; on your own machine, set the performance governor"
        )
    }

    /// How far the core's clock may move (3%, as a fresh calibration may) before it is a warning.
    static let clockTolerance = 0.03

    /// Whether `--tier` can throttle a program through a cgroup (v1 or v2) or falls back to signals.
    public func cgroups() -> Finding {
        let probe = system.throttleProbe()
        if probe.usesCgroup {
            return Finding(id: "cgroups", status: .ok, summary: "exec --tier throttles through \(probe.mechanism), and --enforce-memory can limit memory")
        }
        return Finding(
            id: "cgroups", status: .warning,
            summary:
                "no cgroup can throttle here (\(probe.fallback ?? "none is writable")): exec --tier falls back to \(probe.mechanism), which stretches programs under a few ms poorly, and --enforce-memory is unavailable",
            advice:
                "run as root on a machine with the cgroup v2 cpu controller delegated (or a writable v1 cpu hierarchy), e.g. in a container started with --cgroupns=private and a writable /sys/fs/cgroup"
        )
    }

    /// Valgrind, which `--metric instructions` runs the launch under.
    public func valgrind() -> Finding {
        guard let path = system.executable("valgrind") else {
            return Finding(
                id: "valgrind", status: .note, summary: "valgrind is not installed: --metric instructions (counts that load does not move) is unavailable",
                advice: "install it (`sudo apt-get install valgrind`, or `make setup`) to gate on instruction counts on a noisy machine")
        }
        return Finding(id: "valgrind", status: .ok, summary: "valgrind at \(path): --metric instructions works")
    }

    /// perf, for sampling a launch, and whether this user may use it (`perf_event_paranoid`).
    public func perf() -> Finding {
        let paranoid = system.read("/proc/sys/kernel/perf_event_paranoid").flatMap { Int($0.trimmed) }
        guard let path = system.executable("perf") else {
            return Finding(
                id: "perf", status: .note, summary: "perf is not installed: no sampling profiles of a launch (launchprof's phases still work)",
                advice: "install it (`sudo apt-get install linux-perf`) to see where a slow phase spends its time")
        }
        if let paranoid, paranoid > 2, getuidIsNotRoot() {
            return Finding(
                id: "perf", status: .warning, summary: "perf at \(path), but perf_event_paranoid is \(paranoid): only root may sample",
                advice: "lower it (`sudo sysctl kernel.perf_event_paranoid=1`) or sample as root")
        }
        let counters = system.entries(of: "/sys/bus/event_source/devices").contains("cpu")
        if !counters {
            return Finding(
                id: "perf", status: .note,
                summary: "perf at \(path), without hardware counters here (a virtual machine): it samples by timer (cpu-clock) only",
                advice: "use `perf record -e cpu-clock`; cycle and cache-miss counts need a machine that exposes its PMU")
        }
        return Finding(id: "perf", status: .ok, summary: "perf at \(path), with hardware counters")
    }

    /// Whether a cold launch (`--cold`) can be made: evicting a file's pages must leave none resident.
    public func pageCache() -> Finding {
        switch system.pageCacheEvictionWorks() {
        case true?:
            return Finding(
                id: "page-cache", status: .ok, summary: "posix_fadvise(DONTNEED) evicts files from the page cache: --cold launches read from the device")
        case false?:
            return Finding(
                id: "page-cache", status: .problem,
                summary: "posix_fadvise(DONTNEED) left the file's pages cached (an overlay or network file system?): --cold launches are in fact warm",
                advice:
                    "put the manifest and its assets on a local file system (ext4, xfs) for --cold, or drop every cache as root (`echo 1 > /proc/sys/vm/drop_caches`) between runs"
            )
        case nil:
            return Finding(
                id: "page-cache", status: .note, summary: "could not probe the page cache (no writable temporary directory)",
                advice: "set TMPDIR to a writable local directory")
        }
    }

    private func format(_ value: Double) -> String { SecondsFormat.format(value, precision: 2) }
    private func percent(_ share: Double) -> String { SecondsFormat.format(share * 100, precision: 1) + "%" }
    private func getuidIsNotRoot() -> Bool { !system.isRoot }
}

extension DoctorSystem {
    /// Whether launchprof runs as root (`/proc/self/status`' effective uid is 0).
    public var isRoot: Bool {
        guard let status = read("/proc/self/status") else { return false }
        for line in status.split(separator: "\n") where line.hasPrefix("Uid:") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields.count > 2 && fields[2] == "0"
        }
        return false
    }
}

extension String {
    var trimmed: String {
        var slice = Substring(self)
        while let c = slice.first, c == " " || c == "\n" || c == "\t" { slice.removeFirst() }
        while let c = slice.last, c == " " || c == "\n" || c == "\t" { slice.removeLast() }
        return String(slice)
    }
}
