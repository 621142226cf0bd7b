import CHistoryShim
import LaunchChangePoints
import LaunchCore
import LaunchResults
import LaunchStats

/// A result in the form a database stores it: the fields it is looked up by, each phase's run
/// values (compact, for series), and the whole document as the result writer writes it, deflated,
/// so that a field this build does not look at (a later schema's) is kept and exported as it was.
struct StoredResult {
    var entry: HistoryEntry
    /// Per phase path: each run's value of the result's metric (and the launch total, peak memory).
    var phases: [(path: String, runs: [Double])]
    /// ``ResultFile/encode(_:)`` of the result, deflated; and its length before.
    var document: [UInt8]
    var documentSize: Int

    init(_ result: LaunchResult, commit: CommitInfo, location: String) throws(HistoryError) {
        guard let git = result.git else {
            throw .noCommit(store: location)
        }
        let metric = result.configuration?.metric ?? .time
        let table = PhaseTable(result)
        let totals = metric == .instructions ? table.instructionTotals : table.totals
        var commit = commit
        if commit.branch == nil { commit.branch = git.branch }
        entry = HistoryEntry(
            id: "", commit: commit, dirty: git.dirty, environment: EnvironmentKey.of(result.host), host: EnvironmentKey.description(result.host),
            tier: result.configuration?.tier?.name ?? "host", metric: metric, target: SeriesTarget(result), date: result.date,
            runCount: result.runs.count, total: Summary(totals)?.median)
        phases = Self.phases(result, table: table, metric: metric)
        let json: [UInt8]
        do { json = try ResultFile.encode(result) } catch { throw .cannotEncode(store: location, error) }
        documentSize = json.count
        document = try Deflate.compress(json, location: location)
    }

    /// Each phase's (and mark's) run values of `metric`, then the launch totals and peak memory.
    static func phases(_ result: LaunchResult, table: PhaseTable, metric: Metric) -> [(path: String, runs: [Double])] {
        var phases = table.rows.map { (path: $0.path, runs: $0.values(metric)) }.filter { !$0.runs.isEmpty }
        let totals = metric == .instructions ? table.instructionTotals : table.totals
        if !totals.isEmpty { phases.append((SeriesKey.totalPhase, totals)) }
        let memory = result.runs.compactMap(\.peakResidentBytes).map(Double.init)
        if !memory.isEmpty { phases.append((SeriesKey.peakMemoryPhase, memory)) }
        return phases
    }
}

/// Run values packed as little-endian 64-bit floats: 8 bytes a run.
enum RunPacking {
    static func pack(_ values: [Double]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 8)
        for value in values {
            var bits = value.bitPattern.littleEndian
            withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    static func unpack(_ bytes: [UInt8]) -> [Double] {
        stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { i in
            var bits: UInt64 = 0
            for j in 0..<8 { bits |= UInt64(bytes[i + j]) << (8 * UInt64(j)) }
            return Double(bitPattern: bits)
        }
    }
}

/// zlib, for the stored documents.
enum Deflate {
    static func compress(_ bytes: [UInt8], location: String) throws(HistoryError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: lp_deflate_bound(bytes.count))
        var length = output.count
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { lp_deflate(input.baseAddress, input.count, $0.baseAddress, &length) }
        }
        guard status == 0 else { throw .cannotCompress(store: location, status: status) }
        return Array(output.prefix(length))
    }

    /// The `size` bytes `bytes` inflates to; refuses a size past the result file limit, and a
    /// stream that is damaged or of another length.
    static func decompress(_ bytes: [UInt8], size: Int, location: String) throws(HistoryError) -> [UInt8] {
        guard size >= 0, size <= ResultLimits.maximumFileBytes else {
            throw .corrupt(store: location, what: "a stored result claims \(size) bytes, past the \(ResultLimits.maximumFileBytes)-byte limit of a result")
        }
        var output = [UInt8](repeating: 0, count: size)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { lp_inflate(input.baseAddress, input.count, $0.baseAddress, size) }
        }
        guard status == 0 else { throw .corrupt(store: location, what: "a stored result does not inflate to its \(size) bytes (zlib status \(status))") }
        return output
    }
}
