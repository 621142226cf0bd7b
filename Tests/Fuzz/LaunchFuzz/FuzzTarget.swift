import LaunchCore
import LaunchExport
import LaunchResults
import LaunchFunctions
import LaunchImage
import LaunchPipeline
import LaunchRunner
import LaunchSampling
import LaunchStats
import LaunchTiers
import LaunchManifest
import LaunchTraces

/// One parser that `make fuzz` drives with arbitrary bytes, through the same public entry point the
/// tool uses (bytes in memory plus a file name for errors; nothing touches the disk).
public enum FuzzTarget: String, CaseIterable, Sendable {
    case theme, data, manifest, result, tiers, budgets, `protocol`, png
    /// The startup-trace readers of `--trace` (LaunchTraces).
    case pythonImporttime = "python-importtime", gitTrace2 = "git-trace2", chromeTrace = "chrome-trace"
    /// `exec --ready-when-output`: the first line is the pattern (its size checked, then compiled),
    /// matched against each further line (output lines of a program).
    case readyPattern = "ready-pattern"
    /// `--functions`: a Callgrind output file (LaunchFunctions' streaming reader), every part's
    /// costs then added up as a phase's profile is.
    case callgrind
    /// `--sample`: `perf script`'s output (LaunchSampling's streaming reader), its samples then placed
    /// on a run's phases and summed per phase as a session's are.
    case perfScript = "perf-script"

    /// What the parser did with one input: a value or a thrown error. A crash never returns.
    public enum Outcome: Equatable, Sendable {
        case value
        case error(String)
    }

    /// The name the input gets in error messages.
    public var fileName: String {
        switch self {
        case .theme: "fuzz-theme.xml"
        case .data: "fuzz-data.xml"
        case .manifest: "fuzz-manifest.json"
        case .result: "fuzz-result.json"
        case .tiers: "fuzz-tiers.json"
        case .budgets: "fuzz-budgets.json"
        case .protocol: "<fuzz protocol>"
        case .png: "fuzz.png"
        case .pythonImporttime: ImportTimeReader.source
        case .gitTrace2: "fuzz-trace2.json"
        case .chromeTrace: "fuzz-chrome-trace.json"
        case .readyPattern: "--ready-when-output"
        case .callgrind: "callgrind.out.fuzz"
        case .perfScript: "perf.script.fuzz"
        }
    }

    /// The largest input worth trying (libFuzzer `-max_len`): a little above the largest seed.
    public var maxLength: Int {
        switch self {
        case .theme, .data: 16384
        case .png: 65536
        case .manifest, .result, .tiers, .budgets, .protocol: 8192
        case .pythonImporttime, .gitTrace2, .chromeTrace: 8192
        case .readyPattern: 512
        case .callgrind, .perfScript: 16384
        }
    }

    /// Feeds `bytes` to the parser and reports what it returned.
    public func run(_ bytes: [UInt8]) -> Outcome {
        do {
            switch self {
            case .theme: _ = try ThemeParser.parse(bytes, file: fileName)
            case .data: _ = try DataTable.parse(bytes, file: fileName)
            case .manifest: _ = try ManifestLoader.parse(bytes, path: fileName)
            case .result: _ = try ResultFile.decode(bytes, path: fileName)
            case .tiers: _ = try TierTable(json: bytes, file: fileName)
            case .budgets: _ = try Budget(json: bytes, file: fileName)
            case .protocol: try Self.protocolRun(bytes)
            case .png: _ = try PNGDecoder().decodeWithFormat(bytes, file: fileName)
            case .pythonImporttime: Self.check(try ImportTimeReader.read(stderr: bytes, clock: Self.traceClock))
            case .gitTrace2: Self.check(try Trace2Reader.read(bytes, file: fileName, clock: Self.traceClock))
            case .chromeTrace: Self.check(try ChromeTraceReader.read(bytes, file: fileName, clock: Self.traceClock))
            case .readyPattern:
                do { try Self.readyPatternRun(bytes) } catch { return .error("\(fileName): \(error)") }
            case .callgrind:
                do {
                    let profile = try CallgrindFunctionReader.parse(bytes, file: fileName)
                    _ = profile.costs(of: 0..<profile.parts.count)
                } catch { return .error(String(describing: error)) }
            case .perfScript:
                do { try Self.perfScriptRun(bytes) } catch { return .error(String(describing: error)) }
            }
            return .value
        } catch {
            return .error(String(describing: error))
        }
    }

    /// Splits `bytes` into lines the way the launcher does (newline-separated, decoded as UTF-8,
    /// the unterminated tail last), with a fixed clock so a run is reproducible.
    static func protocolRun(_ bytes: [UInt8]) throws {
        var parser = ProtocolParser(spawnReading: 1_000_000_000)
        parser.now = { 2_000_000_000 }
        defer { _ = parser.openPhaseNames }
        var start = 0
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            try parser.consume(Substring(String(decoding: bytes[start..<newline], as: UTF8.self)))
            start = newline + 1
        }
        if start < bytes.count {
            try parser.consume(Substring(String(decoding: bytes[start...], as: UTF8.self)))
        }
        if parser.finished {
            _ = parser.run(index: 0, pid: nil)
        }
    }

    /// Reads `bytes` as `perf script` output, places the samples on a run spawned at 1,000 s (pid
    /// 100: process start, then `work` with a nested `inner` phase on thread 0, `side` on thread 1)
    /// and sums them per phase, checking what the summary promises.
    static func perfScriptRun(_ bytes: [UInt8]) throws(SamplingError) {
        var record = RunRecord(
            index: 1, pid: 100, total: 0.1,
            phases: [
                PhaseRecord(name: "process start", start: 0, duration: 0.01), PhaseRecord(name: "work", start: 0.01, duration: 0.09),
                PhaseRecord(name: "inner", start: 0.02, duration: 0.01, depth: 1, parent: 1), PhaseRecord(name: "side", start: 0.01, duration: 0.05, thread: 1)
            ])
        record.spawnReading = 1_000_000_000_000
        var collection = SampleCollection(records: [record], selfPid: 1)
        try PerfScriptReader.parse(bytes, file: FuzzTarget.perfScript.fileName) { collection.add($0) }
        let profiles = SampleSummary(collection, demangler: Demangler(swift: nil, cplusplus: nil))
            .profiles(setup: SamplingSetup(perf: "perf", event: "cpu-clock", rate: 1000))
        precondition(profiles.samples == collection.count && profiles.outsidePhases <= profiles.samples, "samples lost or invented")
        for phase in profiles.phases {
            precondition(phase.total <= profiles.samples && phase.functionCount >= phase.functions.count, "phase \(phase.phase) over the total")
            for function in phase.functions { precondition(function.selfCost <= function.inclusiveCost && function.inclusiveCost <= phase.total) }
        }
        if let inner = profiles.phase("work/inner") { precondition((profiles.phase("work")?.total ?? 0) >= inner.total, "a child over its parent") }
    }

    /// Compiles the first line of `bytes` as a ready pattern and matches it against the other lines
    /// (each cut at 64 bytes: an exponential match on a long line is what the launcher's matching
    /// thread is for, not what this target looks for).
    static func readyPatternRun(_ bytes: [UInt8]) throws {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let regex = try ExtendedRegex(String(decoding: lines.first ?? [], as: UTF8.self))
        for line in lines.dropFirst().prefix(16) { _ = regex.matches(line.prefix(64)) }
    }

    /// The run every trace is read for: spawned 1,000 s after boot on the monotonic clock, at
    /// 2027-01-15T08:00:00Z on the wall clock, lasting 10 s (seeds with times on either clock fit).
    static let traceClock = SpawnClock(
        monotonicNanoseconds: 1_000_000_000_000, realtimeSeconds: 1_800_000_000,
        endMonotonicNanoseconds: 1_010_000_000_000)

    /// What a reading promises, checked so that a reader that lies crashes the fuzzer: every phase
    /// within the run, parents first and on the same thread, each child within its parent, depths
    /// within the limit, marks within the run.
    static func check(_ reading: TraceReading) {
        let duration = traceClock.duration
        precondition(reading.phases.count <= TraceLimits.phases && reading.marks.count <= TraceLimits.marks)
        for (i, phase) in reading.phases.enumerated() {
            precondition(phase.start >= 0 && phase.duration >= 0 && phase.end <= duration + 1e-9, "phase \(i) outside the run")
            precondition(phase.depth >= 0 && phase.depth < TraceLimits.depth, "phase \(i) too deep")
            if let parent = phase.parent {
                precondition(parent < i, "phase \(i) before its parent")
                let outer = reading.phases[parent]
                precondition(outer.thread == phase.thread && outer.depth + 1 == phase.depth, "phase \(i) not nested in its parent")
                precondition(phase.start >= outer.start && phase.end <= outer.end + 1e-9, "phase \(i) outside its parent")
            } else {
                precondition(phase.depth == 0, "phase \(i) at depth \(phase.depth) without a parent")
            }
        }
        for mark in reading.marks { precondition(mark.time >= 0 && mark.time <= duration, "a mark outside the run") }
    }
}
