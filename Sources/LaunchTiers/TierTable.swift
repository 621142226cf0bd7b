import Foundation
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

    /// Parses a tiers file.
    public init(json bytes: [UInt8], file: String) throws(TierError) {
        if let deep = JSONNesting.check(bytes) {
            throw TierError("\(file): line \(deep.line), column \(deep.column): nested more than \(deep.limit) levels deep (a tiers file needs 4)")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw TierError("\(file): invalid JSON")
        }
        guard let object = root as? [String: Any], let list = object["tiers"] as? [Any] else {
            throw TierError("\(file): expected an object with a \"tiers\" array")
        }
        var tiers: [DeviceTier] = []
        for (i, item) in list.enumerated() {
            let path = "\(file): tiers[\(i)]"
            guard let entry = item as? [String: Any] else { throw TierError("\(path): expected an object") }
            let allowed: Set = ["name", "description", "referenceSeconds", "factors", "memoryBudgetMB", "backgroundMemoryMB", "cores"]
            if let unknown = entry.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw TierError("\(path): unknown key \"\(unknown)\" (expected: \(allowed.sorted().joined(separator: ", ")))")
            }
            guard let name = entry["name"] as? String, !name.isEmpty else { throw TierError("\(path).name: expected a non-empty string") }
            func kinds(_ key: String) throws(TierError) -> [PhaseKind: Double]? {
                guard let value = entry[key] else { return nil }
                guard let dict = value as? [String: Any] else { throw TierError("\(path).\(key): expected an object of cpu, io, decode, draw") }
                var out: [PhaseKind: Double] = [:]
                for (k, v) in dict {
                    guard let kind = PhaseKind(rawValue: k) else { throw TierError("\(path).\(key).\(k): unknown kind (expected cpu, io, decode, draw)") }
                    guard let number = (v as? NSNumber)?.doubleValue, number.isFinite, number > 0, number <= 1e6 else {
                        throw TierError("\(path).\(key).\(k): expected a positive number (at most 1000000)")
                    }
                    out[kind] = number
                }
                return out
            }
            let reference = try kinds("referenceSeconds")
            let factors = try kinds("factors")
            guard (reference == nil) != (factors == nil) else {
                throw TierError("\(path): give either \"referenceSeconds\" (calibrated) or \"factors\" (fixed), not \(reference == nil ? "neither" : "both")")
            }
            var budget: Int?
            if let value = entry["memoryBudgetMB"] {
                guard let mb = (value as? NSNumber)?.doubleValue, mb > 0, mb <= 1e9 else {
                    throw TierError("\(path).memoryBudgetMB: expected a positive number of MiB (at most 1000000000)")
                }
                budget = Int(mb * 1_048_576)
            }
            var background: Int?
            if let value = entry["backgroundMemoryMB"] {
                guard let mb = (value as? NSNumber)?.doubleValue, mb > 0, mb <= 1e9 else {
                    throw TierError("\(path).backgroundMemoryMB: expected a positive number of MiB (at most 1000000000)")
                }
                background = Int(mb * 1_048_576)
            }
            let cores = try Self.cores(entry["cores"], path: path)
            tiers.append(
                DeviceTier(
                    name: name, description: entry["description"] as? String ?? "",
                    referenceSeconds: reference, fixedFactors: factors, memoryBudget: budget, backgroundMemory: background,
                    cores: cores))
        }
        self.tiers = tiers
    }

    /// A tier's `cores`: a whole number in ``DeviceTier/coreRange``, or `nil` when absent.
    private static func cores(_ value: Any?, path: String) throws(TierError) -> Int? {
        guard let value else { return nil }
        let range = DeviceTier.coreRange
        guard let number = (value as? NSNumber)?.doubleValue, number.isFinite, let whole = Int(exactly: number), range.contains(whole)
        else {
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
