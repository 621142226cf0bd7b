import LaunchprofTestSupport
import Testing
@testable import LaunchTiers
import LaunchCore
#if canImport(Glibc)
import Glibc
#endif

/// The per-host calibration cache: used when it is this host's and this reference version's,
/// measured afresh (and said) when it is missing, corrupt or another's; written atomically.
@Suite struct CalibrationCacheTests {
    static let host = HostFingerprint(cpuModel: "Test CPU @ 3 GHz", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64", referenceVersion: 1)

    /// A temporary `$XDG_CACHE_HOME`, removed after `body`.
    func withCacheHome(_ body: (String, CalibrationCache) throws -> Void) throws {
        let home = try TemporaryDirectory.make(prefix: "xdg")
        defer { TemporaryDirectory.remove(home) }
        let cache = try #require(CalibrationCache(environment: ["XDG_CACHE_HOME": home, "HOME": "/nonexistent"]))
        #expect(cache.directory == home + "/launchprof")
        try body(home, cache)
    }

    /// A calibrator whose samples are `base` scaled by 1, 2, 3…: counts how often it measured.
    final class FakeSampler {
        var calls = 0
        let base: Double
        init(base: Double = 0.001) { self.base = base }
        func sample() -> HostReference {
            calls += 1
            let s = base * Double(calls)
            return HostReference(seconds: [.cpu: s, .io: 2 * s, .decode: 3 * s, .draw: 4 * s])
        }
    }

    func calibrator(_ cache: CalibrationCache?, _ sampler: FakeSampler, host: HostFingerprint = host, processes: Int = 5) -> Calibrator {
        var calibrator = Calibrator(cache: cache, fingerprint: host, now: { "2026-11-25T20:00:00Z" }, sample: { sampler.sample() })
        calibrator.processes = processes
        return calibrator
    }

    @Test func aMissingCacheIsMeasuredSaidAndStoredThenReused() throws {
        try withCacheHome { _, cache in
            let sampler = FakeSampler()
            let first = try calibrator(cache, sampler).calibration()
            #expect(sampler.calls == 5)
            #expect(first.source == "measured")
            #expect(first.note?.contains("no calibration cached for this host") == true)
            // The fastest of the five processes' 1…5 ms.
            #expect(first.calibration.reference.seconds[.cpu] == 0.001)
            #expect(first.calibration.reference.seconds[.draw] == 0.004)
            #expect(first.calibration.samples.count == 5)
            #expect(FileIO.exists(cache.path(for: Self.host)))
            let second = try calibrator(cache, sampler).calibration()
            #expect(sampler.calls == 5, "the cached calibration is used: nothing measured")
            #expect(second.source == "cache")
            #expect(second.note == nil)
            #expect(second.calibration == first.calibration)
            #expect(second.info.made == "2026-11-25T20:00:00Z")
            #expect(second.info.processes == 5)
        }
    }

    @Test func refreshMeasuresAgainAndReplacesTheCache() throws {
        try withCacheHome { _, cache in
            let sampler = FakeSampler()
            let first = try calibrator(cache, sampler).calibration()
            let fresh = try calibrator(cache, sampler).calibration(refresh: true)
            #expect(sampler.calls == 10)
            #expect(fresh.source == "measured")
            #expect(fresh.note == nil, "asked for: nothing to explain")
            #expect(fresh.calibration != first.calibration)
            #expect(cache.load(for: Self.host) == .found(fresh.calibration))
        }
    }

    @Test func aCorruptCacheIsMeasuredAfreshAndReplaced() throws {
        try withCacheHome { _, cache in
            // A format-1 file (the fastest seconds, no clock: before calibrations were counted in
            // clock cycles) is measured again rather than used.
            var formatOne = CalibrationCache.encode(
                Calibration(
                    reference: HostReference(seconds: [.cpu: 1, .io: 1, .decode: 1, .draw: 1]), fingerprint: Self.host, made: "2026-11-25T20:00:00Z",
                    samples: [HostReference(seconds: [.cpu: 1, .io: 1, .decode: 1, .draw: 1])]))
            formatOne = formatOne.replacing("\"format\": \(CalibrationCache.format)", with: "\"format\": 1")
            #expect(formatOne.contains("\"format\": 1,"))
            for corrupt in ["", "{", #"{"format": 1}"#, "[1, 2]", #"{"format": 99}"#, formatOne] {
                try FileIO.writeAtomically(corrupt, to: cache.path(for: Self.host))
                guard case .unusable(let why) = cache.load(for: Self.host) else {
                    Issue.record("'\(corrupt)' was not refused")
                    continue
                }
                #expect(why.contains(cache.path(for: Self.host)))
                let sampler = FakeSampler()
                let outcome = try calibrator(cache, sampler).calibration()
                #expect(sampler.calls == 5)
                #expect(outcome.note?.contains("the cached calibration cannot be used") == true)
                #expect(cache.load(for: Self.host) == .found(outcome.calibration))
            }
        }
    }

    @Test func anotherHostsCacheIsNeverUsed() throws {
        try withCacheHome { _, cache in
            let sampler = FakeSampler()
            let mine = try calibrator(cache, sampler).calibration().calibration
            var other = Self.host
            other.cpuModel = "Other CPU"
            #expect(cache.path(for: other) != cache.path(for: Self.host))
            #expect(cache.load(for: other) == .missing)
            let theirs = try calibrator(cache, FakeSampler(base: 0.01), host: other).calibration()
            #expect(theirs.source == "measured")
            #expect(theirs.calibration.fingerprint == other)
            // Another host's file under this host's name (copied across, say) is refused by its content.
            try FileIO.writeAtomically(CalibrationCache.encode(theirs.calibration), to: cache.path(for: Self.host))
            guard case .unusable(let why) = cache.load(for: Self.host) else {
                Issue.record("another host's calibration was accepted")
                return
            }
            #expect(why.contains("CPU model: Other CPU vs Test CPU @ 3 GHz"))
            #expect(mine.fingerprint == Self.host)
        }
    }

    @Test func anotherReferenceVersionsCacheIsNeverUsed() throws {
        try withCacheHome { _, cache in
            var old = Self.host
            old.referenceVersion = 0
            _ = try calibrator(cache, FakeSampler(), host: old).calibration()
            #expect(cache.load(for: Self.host) == .missing)
            let sampler = FakeSampler()
            let outcome = try calibrator(cache, sampler).calibration()
            #expect(sampler.calls == 5)
            #expect(outcome.info.referenceVersion == 1)
            var kernel = Self.host
            kernel.kernel = "Linux 6.2.0"
            #expect(kernel.key != Self.host.key, "a new kernel is another host")
            var debug = Self.host
            debug.build = debug.build == "debug" ? "release" : "debug"
            #expect(cache.load(for: debug) == .missing, "a debug build's calibration is not a release build's")
        }
    }

    /// Version 2 changed the io workload (docs/tiers.md, "The io reference"): a calibration cached by
    /// a build of version 1 is never used by this one, whether under its own name or copied to this one's.
    @Test func aVersionOneCalibrationIsMeasuredAgain() throws {
        #expect(HostReference.version == 2)
        try withCacheHome { _, cache in
            let current = HostFingerprint(cpuModel: "Test CPU @ 3 GHz", cores: 2, kernel: "Linux 6.1.0", architecture: "x86_64")
            var versionOne = current
            versionOne.referenceVersion = 1
            #expect(current.referenceVersion == 2 && versionOne.key != current.key)
            let old = try calibrator(cache, FakeSampler(base: 0.01), host: versionOne).calibration().calibration
            let sampler = FakeSampler()
            let outcome = try calibrator(cache, sampler, host: current).calibration()
            #expect(sampler.calls == 5, "measured again, not read from version 1's file")
            #expect(outcome.source == "measured" && outcome.info.referenceVersion == 2)
            #expect(outcome.calibration.reference.seconds[.io] == 0.002)
            // Version 1's file under version 2's name is refused by what it says inside.
            try FileIO.writeAtomically(CalibrationCache.encode(old), to: cache.path(for: current))
            guard case .unusable(let why) = cache.load(for: current) else {
                Issue.record("a version 1 calibration was used by version 2")
                return
            }
            #expect(why.contains("reference workloads: version 1 vs 2"))
            let again = try calibrator(cache, sampler, host: current).calibration()
            #expect(sampler.calls == 10 && again.source == "measured")
            #expect(again.note?.contains("the cached calibration cannot be used") == true)
            #expect(cache.load(for: current) == .found(again.calibration))
        }
    }

    @Test func concurrentWritersLeaveOneWholeFileAndNoTemporaries() throws {
        try withCacheHome { _, cache in
            let writers = 8
            let calibrations = (1...writers).map { i in
                Calibration(
                    reference: HostReference(seconds: [.cpu: Double(i), .io: 1, .decode: 1, .draw: 1]), fingerprint: Self.host,
                    made: "writer \(i)", samples: (0..<50).map { _ in HostReference(seconds: [.cpu: Double(i), .io: 1, .decode: 1, .draw: 1]) })
            }
            // Every writer stores 20 times, at once, while readers read: a reader sees a whole file or none.
            var threads: [pthread_t] = []
            final class Job {
                let body: () -> Void
                init(_ body: @escaping () -> Void) { self.body = body }
            }
            // Each thread counts its own failures in its own slot.
            let failures = UnsafeMutableBufferPointer<Int>.allocate(capacity: writers * 2)
            failures.initialize(repeating: 0)
            defer { failures.deallocate() }
            for i in 0..<(writers * 2) {
                let job = Job {
                    for _ in 0..<20 {
                        if i < writers {
                            do { try cache.store(calibrations[i]) } catch { failures[i] += 1 }
                        } else if case .unusable = cache.load(for: Self.host) {
                            failures[i] += 1
                        }
                    }
                }
                var thread = pthread_t()
                let context = Unmanaged.passRetained(job).toOpaque()
                pthread_create(
                    &thread, nil,
                    { raw in
                        let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                        job.body()
                        return nil
                    }, context)
                threads.append(thread)
            }
            for thread in threads { pthread_join(thread, nil) }
            #expect(failures.reduce(0, +) == 0)
            guard case .found(let last) = cache.load(for: Self.host) else {
                Issue.record("the cache is not readable after concurrent writes")
                return
            }
            #expect(calibrations.contains(last))
            let leftovers = FileIO.entries(of: cache.directory).filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test func withoutACacheDirectoryEveryRunMeasuresAndSaysSo() throws {
        #expect(CalibrationCache(environment: ["XDG_CACHE_HOME": "relative/path"]) == nil)
        #expect(CalibrationCache(environment: ["HOME": "/home/u"])?.directory == "/home/u/.cache/launchprof")
        let sampler = FakeSampler()
        let outcome = try calibrator(nil, sampler).calibration()
        #expect(outcome.source == "measured")
        #expect(outcome.note?.contains("no cache directory") == true)
    }

    @Test func withoutClocksTheFastestProcessSetsEachKindWhateverTheModesAndLoad() {
        func reference(_ cpu: Double, _ draw: Double) -> HostReference { HostReference(seconds: [.cpu: cpu, .io: 1, .decode: 1, .draw: draw]) }
        // Two layouts (1.0 and 1.8 for draw) and load that slows some processes: the fast layout is
        // found, whichever processes drew it; each kind on its own.
        let samples = [(1.2, 1.8), (1.0, 1.81), (1.01, 2.5), (1.3, 1.0), (1.0, 1.8), (3.0, 1.01)].map(reference)
        #expect(Calibration.combine(samples) == HostReference(seconds: [.cpu: 1.0, .io: 1, .decode: 1, .draw: 1.0]))
        #expect(Calibration.combine(samples.reversed()) == Calibration.combine(samples), "order does not matter")
        // A kind no process measured is left out rather than made 0.
        #expect(Calibration.combine([HostReference(seconds: [.cpu: 1])]).seconds[.draw] == nil)
    }

    @Test func aCorruptCalibrationNamesTheFileAndKey() {
        func error(_ text: String) -> TierError? {
            do { _ = try CalibrationCache.decode(Array(text.utf8), file: "c.json"); return nil } catch { return error }
        }
        #expect(error("[1]") == .invalidValue(file: "c.json", keyPath: nil, expected: .jsonObject))
        #expect(error(#"{"format": 99}"#) == .invalidValue(file: "c.json", keyPath: "format", expected: .format(CalibrationCache.format)))
        #expect(error(#"{"format": 99}"#)?.description == "c.json: format: expected \(CalibrationCache.format)")
        #expect(
            TierError.invalidValue(file: "c.json", keyPath: "fingerprint", expected: .strings(["cpuModel", "kernel", "architecture", "build"])).description
                == "c.json: fingerprint: expected the strings cpuModel, kernel, architecture and build")
        guard case .invalidJSON("c.json", _) = error("{") else {
            Issue.record("invalid JSON was not refused as such")
            return
        }
    }

    @Test func aSampleLineRoundTripsAndRefusesMissingKinds() throws {
        let reference = HostReference(seconds: [.cpu: 0.000123456789, .io: 0.002, .decode: 0.0015, .draw: 0.0042])
        #expect(try HostReference(jsonLine: Array(reference.jsonLine.utf8)) == reference)
        #expect(throws: TierError.invalidValue(file: HostReference.sampleSource, keyPath: "io", expected: .seconds)) {
            try HostReference(jsonLine: Array(#"{"cpu": 1}"#.utf8))
        }
        #expect(throws: TierError.invalidValue(file: HostReference.sampleSource, keyPath: "cpu", expected: .seconds)) {
            try HostReference(jsonLine: Array(#"{"cpu": -1, "io": 1, "decode": 1, "draw": 1}"#.utf8))
        }
        #expect(
            TierError.invalidValue(file: HostReference.sampleSource, keyPath: "cpu", expected: .seconds).description
                == "reference sample: cpu: expected a positive number of seconds")
        #expect(TierError.sampleFailed(.timedOut(seconds: 60)).description == "reference sample: the sample process ran for over 60 s")
    }
}
