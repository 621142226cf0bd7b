import FoundationEssentials
import LaunchCore

/// Reads and writes result documents (JSON), refusing schema versions this build does not know.
public enum ResultFile {

    /// The JSON bytes of `result` (``PrettyJSON``: stable and diffable); the refusal says where a value
    /// JSON cannot hold is, and the caller's error names the file or store.
    public static func encode(_ result: LaunchResult) throws(PrettyJSON.Unencodable) -> [UInt8] {
        try PrettyJSON.encode(result)
    }

    /// Decodes a result. The document is first checked by the streaming reader
    /// (``ResultTableReader``): strict JSON, the limits of ``ResultLimits``, the schema version and
    /// the types and consistency of every run and phase; so both readers accept the same files.
    public static func decode(_ bytes: [UInt8], path: String) throws(ResultError) -> LaunchResult {
        _ = try ResultTableReader.tabulate(bytes, path: path)
        let result: LaunchResult
        do {
            result = try decodeModel(bytes)
        } catch {
            throw .malformed(path: path, position: nil, problem: error.problem)
        }
        if let problem = consistencyProblem(result) {
            throw .malformed(path: path, position: nil, problem: problem)
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
                if phase.depth > ResultLimits.maximumPhaseDepth {
                    return "\(at).depth: \(phase.depth) is deeper than the \(ResultLimits.maximumPhaseDepth) levels of phases a result may nest"
                }
                if let count = phase.instructions, count < 0 { return "\(at).instructions: an instruction count must not be negative, found \(count)" }
                if let problem = phase.counters?.problem { return "\(at).counters: \(problem)" }
            }
            if let count = run.instructions, count < 0 { return "runs[\(r)].instructions: an instruction count must not be negative, found \(count)" }
            for (i, mark) in run.marks.enumerated() where !mark.time.isFinite { return "runs[\(r)].marks[\(i)].time is not a finite number" }
            if let process = run.process, !(process.user.isFinite && process.user >= 0 && process.system.isFinite && process.system >= 0) {
                return "runs[\(r)].process: CPU times must be finite, non-negative numbers"
            }
            if let taps = run.taps {
                if taps.delivered < 0 || taps.lost < 0 { return "runs[\(r)].taps: a tap count must not be negative" }
                if taps.latencies.contains(where: { !$0.isFinite || $0 < 0 }) {
                    return "runs[\(r)].taps.latencies: a latency must be a finite, non-negative number"
                }
            }
        }
        return nil
    }

    /// Reads the result at `path`: a regular file of at most ``ResultLimits/maximumFileBytes``.
    public static func read(_ path: String) throws(ResultError) -> LaunchResult {
        try decode(try boundedRead(path), path: path)
    }

    /// The bytes of the regular file at `path`, refused past the result size limit (checked on the
    /// opened descriptor, and again while reading in case the file grows).
    static func boundedRead(_ path: String) throws(ResultError) -> [UInt8] {
        let input = try ResultError.open(path)
        var bytes: [UInt8] = []
        do {
            while try input.refill() {
                bytes.append(contentsOf: UnsafeBufferPointer(start: input.base + input.pos, count: input.end - input.pos))
                input.pos = input.end
            }
        } catch {
            throw ResultError(path: path, error)
        }
        return bytes
    }

    /// Writes `result` to `path` atomically (temporary file and rename).
    public static func write(_ result: LaunchResult, to path: String) throws(ResultError) {
        let bytes: [UInt8]
        do { bytes = try encode(result) } catch { throw .unencodable(path: path, error) }
        do { try FileIO.writeAtomically(bytes, to: path) } catch { throw .cannotWrite(path: path, error) }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = PrettyJSON.keyPath(context.codingPath)
            return p.isEmpty ? "top level" : p
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

extension ResultFile {
    /// Decodes the `Codable` model of a document the strict reader has already checked, through
    /// ``JSONParser`` and ``JSONValueDecoder``; the error, naming no file, says why the model
    /// refused it (the callers add the file).
    static func decodeModel(_ bytes: [UInt8]) throws(ModelRefusal) -> LaunchResult {
        do {
            return try JSONValueDecoder().decode(LaunchResult.self, from: bytes)
        } catch let error as CoreError {
            throw ModelRefusal(problem: "invalid JSON\(error.position)")
        } catch let error as DecodingError {
            throw ModelRefusal(problem: describe(error))
        } catch {
            throw ModelRefusal(problem: "\(error)")
        }
    }

    /// Why the `Codable` model refused a document, naming no file (the callers add it to a ``ResultError``).
    struct ModelRefusal: Error {
        var problem: String
    }
}
