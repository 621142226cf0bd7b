import FoundationEssentials
import LaunchCore

/// Reads and writes result documents (JSON), refusing schema versions this build does not know.
public enum ResultFile {
    /// A result file that cannot be used.
    public struct ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The JSON bytes of `result` (pretty-printed, sorted keys: stable and diffable).
    public static func encode(_ result: LaunchResult) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(result))
    }

    /// Decodes a result, checking the schema version first.
    public static func decode(_ bytes: [UInt8], path: String) throws(ReadError) -> LaunchResult {
        struct Version: Decodable { var schemaVersion: Int? }
        let data = Data(bytes)
        let version: Version
        do {
            version = try JSONDecoder().decode(Version.self, from: data)
        } catch {
            throw ReadError(path: path, reason: "not a launchprof result (invalid JSON)")
        }
        guard let schema = version.schemaVersion else {
            throw ReadError(path: path, reason: "not a launchprof result (no schemaVersion)")
        }
        guard LaunchResult.readableSchemaVersions.contains(schema) else {
            let versions = LaunchResult.readableSchemaVersions
            throw ReadError(path: path, reason: "result schema version \(schema) is not supported (this launchprof \(launchprofVersion) reads versions \(versions.lowerBound) to \(versions.upperBound))")
        }
        let result: LaunchResult
        do {
            result = try JSONDecoder().decode(LaunchResult.self, from: data)
        } catch let error as DecodingError {
            throw ReadError(path: path, reason: "malformed result: \(describe(error))")
        } catch {
            throw ReadError(path: path, reason: "malformed result: \(error)")
        }
        if let problem = consistencyProblem(result) {
            throw ReadError(path: path, reason: "malformed result: \(problem)")
        }
        return result
    }

    /// What is wrong with a decoded result that every reader relies on: parents that come before
    /// their children, finite non-negative durations, finite times. `nil` when it is sound.
    static func consistencyProblem(_ result: LaunchResult) -> String? {
        for (r, run) in result.runs.enumerated() {
            guard run.total.isFinite else { return "runs[\(r)].total is not a finite number" }
            for (i, phase) in run.phases.enumerated() {
                let at = "runs[\(r)].phases[\(i)]"
                if let parent = phase.parent, parent < 0 || parent >= i {
                    return "\(at).parent: \(parent) is not an earlier phase of the run"
                }
                guard phase.start.isFinite, phase.duration.isFinite, phase.duration >= 0 else {
                    return "\(at): start and duration must be finite, and the duration not negative"
                }
                if let host = phase.hostDuration, !host.isFinite || host < 0 { return "\(at).hostDuration must be a finite, non-negative number" }
                guard phase.depth >= 0, phase.thread >= 0 else { return "\(at): depth and thread must not be negative" }
            }
            for (i, mark) in run.marks.enumerated() where !mark.time.isFinite { return "runs[\(r)].marks[\(i)].time is not a finite number" }
        }
        return nil
    }

    /// Reads the result at `path`.
    public static func read(_ path: String) throws -> LaunchResult {
        try decode(try FileIO.read(path), path: path)
    }

    /// Writes `result` to `path` atomically (temporary file and rename).
    public static func write(_ result: LaunchResult, to path: String) throws {
        try FileIO.writeAtomically(try encode(result), to: path)
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "top level" : String(p.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)): missing key \"\(key.stringValue)\""
        case .typeMismatch(let type, let context): return "\(path(context)): expected \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)): expected \(type), found null"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
