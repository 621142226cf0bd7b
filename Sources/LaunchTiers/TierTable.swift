import LaunchCore

/// The device tiers: the built-in table, plus any a user's tiers file adds or overrides.
///
/// Both use the same JSON format (`docs/tiers.md`):
/// ```json
/// { "tiers": [
///   { "name": "iphone-3gs", "description": "…", "memoryBudgetMB": 96,
///     "referenceSeconds": { "cpu": 0.0543, "io": 0.0726, "decode": 0.0746, "draw": 0.7160 } },
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
        if let deep = JSONNesting.check(bytes) {
            throw TierError("\(file): line \(deep.line), column \(deep.column): nested more than \(deep.limit) levels deep (a tiers file needs 4)")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw TierError("\(file): invalid JSON\(error.position)")
        }
        guard let list = root.object?["tiers"]?.array else {
            throw TierError("\(file): expected an object with a \"tiers\" array")
        }
        var tiers: [DeviceTier] = []
        for (i, item) in list.enumerated() {
            tiers.append(try Self.tier(item, path: "\(file): tiers[\(i)]"))
        }
        self.tiers = tiers
    }

    /// The keys a tier entry may have.
    private static let entryKeys: Set = ["name", "description", "referenceSeconds", "factors", "memoryBudgetMB", "backgroundMemoryMB", "cores"]

    /// One entry of the `tiers` array; `path` (`t.json: tiers[2]`) starts every error.
    private static func tier(_ item: JSONValue, path: String) throws(TierError) -> DeviceTier {
        guard let entry = item.object else { throw TierError("\(path): expected an object") }
        if let unknown = entry.keys.sorted().first(where: { !entryKeys.contains($0) }) {
            throw TierError("\(path): unknown key \"\(unknown)\" (expected: \(entryKeys.sorted().joined(separator: ", ")))")
        }
        guard let name = entry["name"]?.string, !name.isEmpty else { throw TierError("\(path).name: expected a non-empty string") }
        let reference = try kinds(entry["referenceSeconds"], path: "\(path).referenceSeconds")
        let factors = try kinds(entry["factors"], path: "\(path).factors")
        guard (reference == nil) != (factors == nil) else {
            throw TierError("\(path): give either \"referenceSeconds\" (calibrated) or \"factors\" (fixed), not \(reference == nil ? "neither" : "both")")
        }
        return DeviceTier(
            name: name, description: entry["description"]?.string ?? "",
            referenceSeconds: reference, fixedFactors: factors,
            memoryBudget: try mebibytes(entry["memoryBudgetMB"], path: "\(path).memoryBudgetMB"),
            backgroundMemory: try mebibytes(entry["backgroundMemoryMB"], path: "\(path).backgroundMemoryMB"),
            cores: try cores(entry["cores"], path: path))
    }

    /// An object of per-kind numbers (`referenceSeconds`, `factors`), or `nil` when absent.
    private static func kinds(_ value: JSONValue?, path: String) throws(TierError) -> [PhaseKind: Double]? {
        guard let value else { return nil }
        guard let object = value.object else { throw TierError("\(path): expected an object of cpu, io, decode, draw") }
        var out: [PhaseKind: Double] = [:]
        for key in object.keys {
            guard let kind = PhaseKind(rawValue: key) else { throw TierError("\(path).\(key): unknown kind (expected cpu, io, decode, draw)") }
            guard let number = object[key]?.number, number > 0, number <= 1e6 else {
                throw TierError("\(path).\(key): expected a positive number (at most 1000000)")
            }
            out[kind] = number
        }
        return out
    }

    /// A size in MiB (`memoryBudgetMB`, `backgroundMemoryMB`) in bytes, or `nil` when absent.
    private static func mebibytes(_ value: JSONValue?, path: String) throws(TierError) -> Int? {
        guard let value else { return nil }
        guard let mb = value.number, mb > 0, mb <= 1e9 else {
            throw TierError("\(path): expected a positive number of MiB (at most 1000000000)")
        }
        return Int(mb * 1_048_576)
    }

    /// A tier's `cores`: a whole number in ``DeviceTier/coreRange``, or `nil` when absent.
    private static func cores(_ value: JSONValue?, path: String) throws(TierError) -> Int? {
        guard let value else { return nil }
        let range = DeviceTier.coreRange
        guard let number = value.number, let whole = Int(exactly: number), range.contains(whole) else {
            throw TierError("\(path).cores: expected a whole number of cores from \(range.lowerBound) to \(range.upperBound)")
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
    /// by measuring both side by side (docs/tiers.md, "The references are frozen").
    public static let builtInJSON = """
        {
          "tiers": [
            { "name": "host", "description": "this machine, no scaling",
              "factors": { "cpu": 1, "io": 1, "decode": 1, "draw": 1 } },
            { "name": "iphone-3gs", "description": "iPhone 3GS (2009): 600 MHz Cortex-A8, 256 MB; the classic app launched in ~2 s",
              "memoryBudgetMB": 96, "backgroundMemoryMB": 24, "cores": 1,
              "referenceSeconds": { "cpu": 0.0543, "io": 0.0726, "decode": 0.0746, "draw": 0.7160 } },
            { "name": "ipod-touch-2g", "description": "iPod touch 2G (2008): 533 MHz ARM11, 128 MB; the classic app launched in ~3 s",
              "memoryBudgetMB": 40, "backgroundMemoryMB": 10, "cores": 1,
              "referenceSeconds": { "cpu": 0.0814, "io": 0.1088, "decode": 0.1119, "draw": 1.0741 } },
            { "name": "iphone-1g", "description": "original iPhone (2007): 412 MHz ARM11, 128 MB; the classic app launched in ~4 s",
              "memoryBudgetMB": 40, "backgroundMemoryMB": 10, "cores": 1,
              "referenceSeconds": { "cpu": 0.1086, "io": 0.1451, "decode": 0.1491, "draw": 1.4321 } }
          ]
        }
        """
}
