import LaunchCore

/// The device tiers: the built-in table, plus any a user's tiers file adds or overrides.
///
/// Both use the same JSON format (`docs/tiers.md`):
/// ```json
/// { "tiers": [
///   { "name": "iphone-3gs", "description": "…", "memoryBudgetMB": 96,
///     "referenceSeconds": { "cpu": 0.0543, "io": 0.00823, "decode": 0.0746, "draw": 0.7160 } },
///   { "name": "half-speed", "description": "…", "factors": { "cpu": 2, "io": 2, "decode": 2, "draw": 2 } }
/// ] }
/// ```
public struct TierTable: Sendable {
    public private(set) var tiers: [DeviceTier]

    /// The built-in tiers (see ``builtInJSON``).
    public static let builtIn: TierTable = {
        do {
            return try TierTable(json: Array(builtInJSON.utf8), file: "<built-in tiers>")
        } catch {
            fatalError("the built-in tier table is malformed: \(error)")
        }
    }()

    /// Parses a tiers file (read by ``JSONParser``); every error names the file and the key path.
    public init(json bytes: [UInt8], file: String) throws(TierError) {
        let root = try JSONNesting.parse(
            bytes, tooDeep: { TierError.tooDeep(file: file, line: $0.line, column: $0.column, limit: $0.limit) },
            invalid: { .invalidJSON(file: file, $0) })
        guard let list = root.object?["tiers"]?.array else {
            throw .invalidValue(file: file, keyPath: nil, expected: .tierList)
        }
        var tiers: [DeviceTier] = []
        for (i, item) in list.enumerated() {
            tiers.append(try Self.tier(item, at: KeyPath(file: file, path: "tiers[\(i)]")))
        }
        self.tiers = tiers
    }

    /// The keys a tier entry may have.
    private static let entryKeys: Set = ["name", "description", "referenceSeconds", "factors", "memoryBudgetMB", "backgroundMemoryMB", "cores"]

    /// Where in a tiers file a value is: the file and the key path (`tiers[2].factors`), which every error names.
    private struct KeyPath {
        let file: String
        let path: String

        func appending(_ key: String) -> KeyPath { KeyPath(file: file, path: path + "." + key) }

        func expected(_ expected: TierError.Expected) -> TierError { .invalidValue(file: file, keyPath: path, expected: expected) }
    }

    /// One entry of the `tiers` array, at `path` (`tiers[2]`).
    private static func tier(_ item: JSONValue, at path: KeyPath) throws(TierError) -> DeviceTier {
        guard let entry = item.object else { throw path.expected(.object) }
        if let unknown = entry.keys.sorted().first(where: { !entryKeys.contains($0) }) {
            throw .unknownKey(file: path.file, keyPath: path.path, key: unknown, allowed: entryKeys.sorted())
        }
        guard let name = entry["name"]?.string, !name.isEmpty else { throw path.appending("name").expected(.nonEmptyString) }
        let reference = try kinds(entry["referenceSeconds"], at: path.appending("referenceSeconds"))
        let factors = try kinds(entry["factors"], at: path.appending("factors"))
        guard (reference == nil) != (factors == nil) else {
            throw .referenceOrFactors(file: path.file, keyPath: path.path, both: reference != nil)
        }
        return DeviceTier(
            name: name, description: entry["description"]?.string ?? "",
            referenceSeconds: reference, fixedFactors: factors,
            memoryBudget: try mebibytes(entry["memoryBudgetMB"], at: path.appending("memoryBudgetMB")),
            backgroundMemory: try mebibytes(entry["backgroundMemoryMB"], at: path.appending("backgroundMemoryMB")),
            cores: try cores(entry["cores"], at: path.appending("cores")))
    }

    /// The largest factor or reference time a tiers file may give.
    static let maximumFactor = 1e6
    /// The largest memory size a tiers file may give, in MiB.
    static let maximumMebibytes = 1e9

    /// An object of per-kind numbers (`referenceSeconds`, `factors`), or `nil` when absent.
    private static func kinds(_ value: JSONValue?, at path: KeyPath) throws(TierError) -> [PhaseKind: Double]? {
        guard let value else { return nil }
        guard let object = value.object else { throw path.expected(.kindObject) }
        var out: [PhaseKind: Double] = [:]
        for key in object.keys {
            guard let kind = PhaseKind(rawValue: key) else { throw .unknownKind(file: path.file, keyPath: path.appending(key).path) }
            guard let number = object[key]?.number, number > 0, number <= maximumFactor else {
                throw path.appending(key).expected(.positiveNumber(maximum: maximumFactor))
            }
            out[kind] = number
        }
        return out
    }

    /// A size in MiB (`memoryBudgetMB`, `backgroundMemoryMB`) in bytes, or `nil` when absent.
    private static func mebibytes(_ value: JSONValue?, at path: KeyPath) throws(TierError) -> Int? {
        guard let value else { return nil }
        guard let mb = value.number, mb > 0, mb <= maximumMebibytes else {
            throw path.expected(.mebibytes(maximum: maximumMebibytes))
        }
        return Int(mb * 1_048_576)
    }

    /// A tier's `cores`: a whole number in ``DeviceTier/coreRange``, or `nil` when absent.
    private static func cores(_ value: JSONValue?, at path: KeyPath) throws(TierError) -> Int? {
        guard let value else { return nil }
        let range = DeviceTier.coreRange
        guard let number = value.number, let whole = Int(exactly: number), range.contains(whole) else {
            throw path.expected(.cores(range))
        }
        return whole
    }

    /// The built-in table with the tiers of `file` added, or replacing built-in tiers of the same name.
    public static func load(userFile: String?) throws -> TierTable {
        var table = builtIn
        if let userFile {
            let user = try TierTable(json: try FileIO.read(userFile, limit: .tiers), file: userFile)
            for tier in user.tiers {
                if let i = table.tiers.firstIndex(where: { $0.name == tier.name }) { table.tiers[i] = tier } else { table.tiers.append(tier) }
            }
        }
        return table
    }

    /// The tier named `name`.
    public func tier(named name: String) throws(TierError) -> DeviceTier {
        guard let tier = tiers.first(where: { $0.name == name }) else {
            throw TierError.unknownTier(name: name, known: tiers.map(\.name))
        }
        return tier
    }

    /// The built-in table. Calibration: the classic calculator launched in about 4 s on the original
    /// iPhone, 3 s on the iPod touch 2G and 2 s on the iPhone 3GS, so their reference times stand
    /// 4 : 3 : 2. The iPhone 3GS figures were set so that the default fixture's launch, emulated,
    /// takes about 2 s; see README "Device tiers" for how they were measured. The reference workloads
    /// are CTierReference's frozen C ones; their seconds were carried over from the app-code workloads
    /// by measuring both side by side (docs/tiers.md, "The references are frozen"), and the io seconds
    /// again from reference version 1 to 2 (``ioCarryOver``; docs/tiers.md, "The io reference").
    /// Version 2's io reference ÷ version 1's on the calibration host: the medians of 20 alternated
    /// `tiers --calibrate` each (0.2295 ms ÷ 2.025 ms, 2026-11-26, load 9.4–16). Each built-in tier's
    /// io seconds are version 1's × this, so its io factor there is what it was (docs/tiers.md).
    static let ioCarryOver = 0.2295 / 2.025
    /// The built-in tiers' io seconds for reference version 1 (iphone-3gs, ipod-touch-2g, iphone-1g).
    static let versionOneIOSeconds = ["iphone-3gs": 0.0726, "ipod-touch-2g": 0.1088, "iphone-1g": 0.1451]

    public static let builtInJSON = """
        {
          "tiers": [
            { "name": "host", "description": "this machine, no scaling",
              "factors": { "cpu": 1, "io": 1, "decode": 1, "draw": 1 } },
            { "name": "iphone-3gs", "description": "iPhone 3GS (2009): 600 MHz Cortex-A8, 256 MB; the classic app launched in ~2 s",
              "memoryBudgetMB": 96, "backgroundMemoryMB": 24, "cores": 1,
              "referenceSeconds": { "cpu": 0.0543, "io": 0.00823, "decode": 0.0746, "draw": 0.7160 } },
            { "name": "ipod-touch-2g", "description": "iPod touch 2G (2008): 533 MHz ARM11, 128 MB; the classic app launched in ~3 s",
              "memoryBudgetMB": 40, "backgroundMemoryMB": 10, "cores": 1,
              "referenceSeconds": { "cpu": 0.0814, "io": 0.01233, "decode": 0.1119, "draw": 1.0741 } },
            { "name": "iphone-1g", "description": "original iPhone (2007): 412 MHz ARM11, 128 MB; the classic app launched in ~4 s",
              "memoryBudgetMB": 40, "backgroundMemoryMB": 10, "cores": 1,
              "referenceSeconds": { "cpu": 0.1086, "io": 0.01644, "decode": 0.1491, "draw": 1.4321 } }
          ]
        }
        """
}
