import LaunchCore
import LaunchExport
import LaunchImage
import LaunchPipeline
import LaunchStats
import LaunchTiers

/// One parser that `make fuzz` drives with arbitrary bytes, through the same public entry point the
/// tool uses (bytes in memory plus a file name for errors; nothing touches the disk).
public enum FuzzTarget: String, CaseIterable, Sendable {
    case theme, data, manifest, result, tiers, budgets, `protocol`, png

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
        }
    }

    /// The largest input worth trying (libFuzzer `-max_len`): a little above the largest seed.
    public var maxLength: Int {
        switch self {
        case .theme, .data: 16384
        case .png: 65536
        case .manifest, .result, .tiers, .budgets, .protocol: 8192
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
}
