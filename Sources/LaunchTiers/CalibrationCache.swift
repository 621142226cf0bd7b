import LaunchCore

/// The per-host calibration cache: one small JSON file per host fingerprint, under
/// `$XDG_CACHE_HOME/launchprof/` (else `~/.cache/launchprof/`), named by ``HostFingerprint/key``.
/// A file is used only when the fingerprint written inside it is the one asked for; anything else
/// (missing, unreadable, malformed, another host's, another reference version's) is reported as
/// ``Lookup/unusable(_:)`` or ``Lookup/missing`` and measured afresh by the caller.
public struct CalibrationCache: Sendable {
    /// The directory the files are in.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The cache of the user `environment` describes: `$XDG_CACHE_HOME/launchprof` when it is an
    /// absolute path (the XDG rule), else `$HOME/.cache/launchprof`; `nil` without either.
    public init?(environment: [String: String]) {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            self.init(directory: xdg + "/launchprof")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            self.init(directory: home + "/.cache/launchprof")
        } else {
            return nil
        }
    }

    /// The version of the file's layout (not of the workloads: that is in the fingerprint). Format 2
    /// (issue 27): the combined `seconds` are the fewest clock cycles of the per-process minima in
    /// seconds at the host's first calibration's clock, with that clock (``Calibration/combine(_:atClock:)``);
    /// a format-1 file (the fastest seconds, no clock) is measured afresh.
    static let format = 2

    /// The file for `fingerprint`.
    public func path(for fingerprint: HostFingerprint) -> String {
        directory + "/calibration-\(fingerprint.key).json"
    }

    /// What a lookup found.
    public enum Lookup: Equatable, Sendable {
        case found(Calibration)
        /// No file for this host and reference version.
        case missing
        /// A file that cannot be used, and why.
        case unusable(String)
    }

    /// The calibration cached for `fingerprint`.
    public func load(for fingerprint: HostFingerprint) -> Lookup {
        let path = path(for: fingerprint)
        guard FileIO.exists(path) else { return .missing }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: .configuration) } catch { return .unusable(error.description) }
        do {
            let calibration = try Self.decode(bytes, file: path)
            let differences = calibration.fingerprint.differences(from: fingerprint)
            guard differences.isEmpty else {
                return .unusable("\(path): made for another host or reference version (\(differences.joined(separator: "; ")))")
            }
            return .found(calibration)
        } catch {
            return .unusable(error.description)
        }
    }

    /// Writes `calibration` as its fingerprint's file, atomically: a reader sees the old file or the
    /// new one whole, and of two writers at once the last rename wins.
    public func store(_ calibration: Calibration) throws(CoreError) {
        try FileIO.writeAtomically(Self.encode(calibration), to: path(for: calibration.fingerprint))
    }

    // MARK: The file

    static func encode(_ calibration: Calibration) -> String {
        func seconds(_ reference: HostReference) -> JSONValue {
            var object = JSONValue.Object()
            for kind in PhaseKind.allCases {
                if let value = reference.seconds[kind] { object[kind.rawValue] = .number(.init(text: "\(value)", value: value)) }
            }
            if let clock = reference.clockGigahertz { object["clock"] = .number(.init(text: "\(clock)", value: clock)) }
            return .object(object)
        }
        let f = calibration.fingerprint
        var host = JSONValue.Object()
        host["cpuModel"] = .string(f.cpuModel)
        host["cores"] = .number(.init(f.cores))
        host["kernel"] = .string(f.kernel)
        host["architecture"] = .string(f.architecture)
        host["referenceVersion"] = .number(.init(f.referenceVersion))
        host["build"] = .string(f.build)
        var root = JSONValue.Object()
        root["format"] = .number(.init(format))
        root["fingerprint"] = .object(host)
        root["made"] = .string(calibration.made)
        root["statistic"] = .string(Calibration.statistic)
        root["seconds"] = seconds(calibration.reference)
        root["samples"] = .array(calibration.samples.map(seconds))
        return JSONWriter.pretty(.object(root))
    }

    /// The calibration in `bytes` (the file `file`); the error names the key that is wrong.
    static func decode(_ bytes: [UInt8], file: String = "calibration") throws(TierError) -> Calibration {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw .invalidJSON(file: file, error) }
        func fail(_ keyPath: String?, _ expected: TierError.Expected) -> TierError { .invalidValue(file: file, keyPath: keyPath, expected: expected) }
        guard let object = root.object else { throw fail(nil, .jsonObject) }
        guard let format = object["format"]?.number, Int(format) == Self.format else { throw fail("format", .format(Self.format)) }
        guard let host = object["fingerprint"]?.object else { throw fail("fingerprint", .object) }
        guard let cpu = host["cpuModel"]?.string, let kernel = host["kernel"]?.string, let architecture = host["architecture"]?.string,
            let build = host["build"]?.string
        else { throw fail("fingerprint", .strings(["cpuModel", "kernel", "architecture", "build"])) }
        guard let cores = host["cores"]?.number, let version = host["referenceVersion"]?.number, cores >= 1, cores <= 1e6, version >= 0, version <= 1e6
        else { throw fail("fingerprint", .wholeNumbers(["cores", "referenceVersion"])) }
        guard let made = object["made"]?.string else { throw fail("made", .string) }
        func reference(_ value: JSONValue?, _ key: String) throws(TierError) -> HostReference {
            guard let fields = value?.object else { throw fail(key, .kindObject) }
            var seconds: [PhaseKind: Double] = [:]
            for kind in PhaseKind.allCases {
                guard let s = fields[kind.rawValue]?.number, s > 0, s < 1e6 else {
                    throw fail("\(key).\(kind.rawValue)", .seconds)
                }
                seconds[kind] = s
            }
            return HostReference(seconds: seconds, clockGigahertz: HostReference.clock(fields["clock"]))
        }
        let combined = try reference(object["seconds"], "seconds")
        guard let list = object["samples"]?.array, !list.isEmpty, list.count <= 1000 else { throw fail("samples", .samples(maximum: 1000)) }
        var samples: [HostReference] = []
        for (i, item) in list.enumerated() { samples.append(try reference(item, "samples[\(i)]")) }
        return Calibration(
            reference: combined,
            fingerprint: HostFingerprint(
                cpuModel: cpu, cores: Int(cores), kernel: kernel, architecture: architecture, referenceVersion: Int(version), build: build),
            made: made, samples: samples)
    }
}

/// This host's calibration for a run: the cached one when there is a usable one, else measured now
/// (in ``processes`` fresh processes) and cached for the next run.
public struct Calibrator {
    /// The cache; `nil` when there is none (no `$XDG_CACHE_HOME` nor `$HOME`): measured every time.
    public var cache: CalibrationCache?
    public var fingerprint: HostFingerprint
    public var processes = Calibration.defaultProcesses
    /// Now, as ISO 8601 in UTC.
    public var now: () -> String
    /// One process's reference times, measured in a fresh process.
    public var sample: () throws(TierError) -> HostReference

    public init(
        cache: CalibrationCache?, fingerprint: HostFingerprint, now: @escaping () -> String,
        sample: @escaping () throws(TierError) -> HostReference
    ) {
        self.cache = cache
        self.fingerprint = fingerprint
        self.now = now
        self.sample = sample
    }

    /// The calibration and how it was got.
    public struct Outcome: Equatable, Sendable {
        public var calibration: Calibration
        /// `cache` or `measured` (``CalibrationInfo/source``).
        public var source: String
        /// Why it was measured now, when it was not asked for (missing or unusable cache), and whether
        /// it could be cached: for saying once on stderr.
        public var note: String?

        /// What a result records of it.
        public var info: CalibrationInfo { calibration.info(source: source) }
    }

    /// The cached calibration, or (with `refresh`, or when none is usable) one measured now, which
    /// then replaces the cache file. One measured again over a usable cached one (`refresh`) keeps
    /// its clock: its cycles are in seconds at the clock this host's first calibration saw
    /// (``Calibration/combine(_:atClock:)``), so recalibrating does not move the factors with the clock.
    public func calibration(refresh: Bool = false) throws(TierError) -> Outcome {
        var reason: String?, anchor: Double?
        if let cache {
            switch cache.load(for: fingerprint) {
            case .found(let calibration):
                guard refresh else { return Outcome(calibration: calibration, source: "cache", note: nil) }
                anchor = calibration.reference.clockGigahertz
            case .missing: reason = refresh ? nil : "no calibration cached for this host in \(cache.directory)"
            case .unusable(let why): reason = refresh ? nil : "the cached calibration cannot be used (\(why))"
            }
        } else {
            reason = "no cache directory (neither $XDG_CACHE_HOME nor $HOME is set)"
        }
        let calibration = try Calibration.measure(processes: processes, fingerprint: fingerprint, made: now(), atClock: anchor, sample: sample)
        var note = reason.map { "\($0): measured this host's reference times in \(calibration.samples.count) processes" }
        if let cache {
            do { try cache.store(calibration) } catch {
                note = (note ?? "measured this host's reference times") + "; not cached: \(error.description)"
            }
        }
        return Outcome(calibration: calibration, source: "measured", note: note)
    }
}
