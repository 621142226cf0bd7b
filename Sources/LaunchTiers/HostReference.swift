#if canImport(Glibc)
import Glibc
#endif
import CTierReference
import LaunchCore

/// How long this host takes for launchprof's fixed reference workloads, one per kind of cost.
/// Calibrated tiers divide their device's times by these to get this host's factors.
public struct HostReference: Codable, Equatable, Sendable {
    /// Seconds per workload, by kind.
    public var seconds: [PhaseKind: Double]
    /// The core's clock ``seconds`` are at (``HostClock``, GHz), when known: a sample's, read while it
    /// was measured; a calibration's, the clock of this host's first calibration
    /// (``Calibration/combine(_:atClock:)``). With it the references are counted in clock cycles
    /// (``cycles(_:)``; docs/tiers.md, "Counted in clock cycles").
    public var clockGigahertz: Double?

    public init(seconds: [PhaseKind: Double], clockGigahertz: Double? = nil) {
        self.seconds = seconds
        self.clockGigahertz = clockGigahertz
    }

    /// The workload of `kind` in the core's clock cycles (its seconds times ``clockGigahertz``), which
    /// do not move with the host's clock; `nil` without a clock or a time.
    public func cycles(_ kind: PhaseKind) -> Double? {
        guard let clockGigahertz, let seconds = seconds[kind] else { return nil }
        return seconds * clockGigahertz * 1e9
    }

    /// The clock a workload of `kind` is timed by. cpu, decode and draw run on one thread without
    /// waiting: the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) counts only what it ran, so another
    /// process preempting a try (on a busy machine every try of a few milliseconds is preempted, in
    /// quanta of the scheduler tick) does not lengthen it, and the fastest try repeats to a few percent
    /// at any load. On a quiet machine it equals the wall time of an undisturbed try. io is timed as
    /// the app's `io` phases are, whose time its factor stretches: the wall clock
    /// (``MonotonicClock/nanoseconds()``) less the time the thread waited for a CPU (``ThreadRunDelay``:
    /// that wait is the load's, not the host's file system's).
    /// The run delay is read inside the wall-clock readings (wall, delay, work, delay, wall), so a
    /// wait between two readings is never taken out of more wall time than it is part of.
    static func time(_ kind: PhaseKind, runDelay: ThreadRunDelay, _ body: () throws(TierError) -> Void) throws(TierError) -> UInt64 {
        guard kind == .io else {
            let start = MonotonicClock.threadCPUNanoseconds()
            try body()
            let end = MonotonicClock.threadCPUNanoseconds()
            return end > start ? end - start : 0
        }
        let wall = MonotonicClock.nanoseconds(), delay = runDelay.nanoseconds()
        try body()
        let delayEnd = runDelay.nanoseconds(), wallEnd = MonotonicClock.nanoseconds()
        let elapsed = wallEnd > wall ? wallEnd - wall : 0
        return elapsed - min(elapsed, delayEnd > delay ? delayEnd - delay : 0)
    }

    /// Seconds of io tries in one process, at least: the wall clock sees more of other work than the
    /// CPU-time clock does (an interrupt, another process's pressure on the caches and the kernel's
    /// locks), so io gets more tries than the others for its fastest to be an undisturbed one.
    public static let ioTriesSeconds = 0.15

    /// The version of the reference workloads (CTierReference). Raise it whenever a workload
    /// changes: every cached calibration and every result's calibration then stands for other work,
    /// and is neither reused nor compared with (docs/tiers.md, "The references are frozen").
    /// Version 2 (issue 27): io reads a launch's files from the page cache instead of flushing 1 MiB to
    /// the disk and reading it back (docs/tiers.md, "The io reference").
    public static let version = 2

    /// Measures every reference workload in this process: one untimed warm-up, then the fastest of
    /// `repetitions` tries, or as many as take `minimumSeconds` (the minimum is the estimate least disturbed by other work; about 0.1 s in
    /// all on a release build). The cpu, decode and draw workloads are timed by the thread's CPU time
    /// (``time(_:runDelay:_:)``), io by the wall clock less the thread's wait for a CPU. One process sees one address layout, which moves these
    /// times a little: a calibration combines several processes' (``Calibration/combine(_:)``).
    /// The io workload's files are made in a new directory in `temporaryDirectory` and removed after.
    public static func measure(
        repetitions: Int = 7, minimumSeconds: Double = 0, temporaryDirectory: String = FileIO.temporaryDirectory
    ) throws(TierError) -> HostReference {
        var seconds: [PhaseKind: Double] = [:]
        let clockBefore = HostClock.gigahertz()
        let workloads = try ReferenceWorkloads(temporaryDirectory: temporaryDirectory)
        let runDelay = ThreadRunDelay()
        defer { runDelay.close() }
        for kind in PhaseKind.allCases {
            var best = Double.infinity
            try workloads.run(kind)
            let minimumSeconds = kind == .io && minimumSeconds > 0 ? max(minimumSeconds, Self.ioTriesSeconds) : minimumSeconds
            // At least `repetitions` tries, and more of a short workload until `minimumSeconds` of
            // tries (at most 1000): its fastest try is then as well sampled as a long one's.
            var tries = 0, spent = 0.0
            while tries < max(1, repetitions) || (spent < minimumSeconds && tries < 1000) {
                let elapsed = LaunchClock.seconds(try Self.time(kind, runDelay: runDelay) { () throws(TierError) in try workloads.run(kind) })
                if elapsed > 0 { best = min(best, elapsed) }
                spent += elapsed
                tries += 1
            }
            seconds[kind] = best
        }
        // The faster of the clock before and after, as each workload's time is its fastest try.
        let clock = [clockBefore, HostClock.gigahertz()].compactMap { $0 }.max()
        return HostReference(seconds: seconds, clockGigahertz: clock)
    }
}

extension HostReference {
    /// `{ "cpu": 0.00123, "io": …, "decode": …, "draw": …, "clock": 4.2 }` at full precision: how a
    /// sample process (`launchprof tiers --reference-sample`) hands its times (and its clock in GHz,
    /// when known) to the calibrating one.
    public var jsonLine: String {
        let fields = PhaseKind.allCases.map { "\"\($0.rawValue)\": \(seconds[$0] ?? 0)" } + (clockGigahertz.map { ["\"clock\": \($0)"] } ?? [])
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    /// A clock in GHz as a calibration stores it: 0.05 to 20 (a clock a core can have), else `nil`
    /// (unknown: a calibration counts cycles only with a clock, and keeps no clock it cannot trust).
    static func clock(_ value: JSONValue?) -> Double? {
        value?.number.flatMap { ClockProbe.plausibleGigahertz.contains($0) ? $0 : nil }
    }

    /// What an error about a sample process's line (``init(jsonLine:)``) names as its file.
    public static let sampleSource = "reference sample"

    /// Reads ``jsonLine``: every kind, each a positive number of seconds (and the clock, if there).
    public init(jsonLine bytes: [UInt8]) throws(TierError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .invalidJSON(file: Self.sampleSource, error) }
        var seconds: [PhaseKind: Double] = [:]
        for kind in PhaseKind.allCases {
            guard let s = value.object?[kind.rawValue]?.number, s > 0, s < 1e6 else {
                throw .invalidValue(file: Self.sampleSource, keyPath: kind.rawValue, expected: .seconds)
            }
            seconds[kind] = s
        }
        self.init(seconds: seconds, clockGigahertz: Self.clock(value.object?["clock"]))
    }
}

/// The fixed reference workloads, in plain C (CTierReference) that shares no code with the app: making
/// the app's drawing, decoding, hashing or file code faster must not make the reference faster, or every
/// calibrated tier's factor would rise with it and hide the improvement. Changing them changes what every
/// calibrated tier means: don't, without re-deriving the built-in table (docs/tiers.md).
final class ReferenceWorkloads {
    private var state = lp_ref_state()
    private var files = lp_ref_io_files()
    /// The directory the io workload's files are in: made in the temporary directory, removed with them.
    let ioDirectory: String

    /// The inputs, and the io workload's files in a new directory in `temporaryDirectory`.
    init(temporaryDirectory: String = FileIO.temporaryDirectory) throws(TierError) {
        let code = lp_ref_init(&state)
        guard code == 0 else { throw TierError.reference(workload: "setup", code: code, errno: 0) }
        do {
            ioDirectory = try FileIO.makeTemporaryDirectory(in: temporaryDirectory, prefix: "launchprof-reference-")
        } catch {
            lp_ref_free(&state)
            guard case .system(_, _, let reason) = error else {
                throw TierError.referenceFiles(directory: temporaryDirectory, step: .create, reason: error.description)
            }
            throw TierError.referenceFiles(directory: temporaryDirectory, step: .create, reason: reason)
        }
        let prepared = lp_ref_io_prepare(&files, &state, ioDirectory)
        guard prepared == 0 else {
            let failure = Self.failure(prepared, in: ioDirectory)
            close()
            throw failure
        }
    }

    deinit {
        close()
    }

    /// Frees the inputs and removes the io workload's files.
    private func close() {
        lp_ref_io_free(&files)
        FileIO.removeTemporaryDirectory(ioDirectory)
        lp_ref_free(&state)
    }

    /// Runs the workload of `kind` once.
    func run(_ kind: PhaseKind) throws(TierError) {
        switch kind {
        case .cpu:
            // SHA-256 of 256 KiB: integer work with no allocation in the loop.
            var digest = [UInt8](repeating: 0, count: 32)
            lp_ref_cpu(&state, &digest)
        case .io:
            _ = try ioChecksum()
        case .decode:
            var checksum: UInt64 = 0
            let code = lp_ref_decode(&state, &checksum)
            guard code == 0 else { throw TierError.reference(workload: "decode", code: code, errno: 0) }
        case .draw:
            _ = lp_ref_draw(&state)
        }
    }

    /// The io workload's checksum (its directory's entries, its text files' scans, its data files'
    /// last bytes): one run of it.
    func ioChecksum() throws(TierError) -> UInt64 {
        var checksum: UInt64 = 0
        let code = lp_ref_io(&files, &checksum)
        guard code == 0 else { throw Self.failure(code, in: ioDirectory) }
        return checksum
    }

    /// The error for the io workload's `code`, with `errno`'s message: read at once, before anything changes it.
    private static func failure(_ code: Int32, in directory: String) -> TierError {
        .referenceFiles(directory: directory, step: ReferenceFileStep(code: code), reason: String(cString: strerror(errno)))
    }

    /// The draw workload's canvas after one run (256×256 RGBA), for tests.
    func drawnCanvas() -> [UInt8] {
        _ = lp_ref_draw(&state)
        return Array(UnsafeBufferPointer(start: state.canvas, count: 256 * 256 * 4))
    }

    /// The sum of the decode workload's RGBA bytes, for tests.
    func decodedChecksum() throws(TierError) -> UInt64 {
        var checksum: UInt64 = 0
        let code = lp_ref_decode(&state, &checksum)
        guard code == 0 else { throw TierError.reference(workload: "decode", code: code, errno: 0) }
        return checksum
    }

    /// The cpu workload's SHA-256 digest, for tests.
    func cpuDigest() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        lp_ref_cpu(&state, &digest)
        return digest
    }
}
