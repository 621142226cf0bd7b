#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchStats

/// The fast reader of result files for `diff` and `check`: one streaming pass over the file, read
/// in bounded chunks (``JSONInput``), that builds the ``PhaseTable`` directly — phase paths
/// interned once, per-path arrays of durations and instruction counts — without materialising a
/// `PhaseRecord` per phase or holding the file in memory.
///
/// It checks what ``ResultFile/decode(_:path:)`` checks (that reader runs this one's validation
/// first, so the two accept and refuse the same files): strict JSON, nesting of at most
/// ``ResultLimits/maximumNesting`` levels, the file size and token limits, the types of every field
/// of runs, phases, marks and counters, finite numbers, parents earlier than their children,
/// non-negative durations and counts, and a supported schema version. Everything outside `runs`
/// (at most ``ResultLimits/maximumHeaderBytes``) is decoded with the `Codable` model, through
/// ``JSONParser`` and ``JSONValueDecoder`` (``ResultFile/decodeModel(_:)``). `ResultReadersAgreeTests`
/// checks that this reader knows every key the model writes, and that both read the test corpus alike.
public enum ResultTableReader {
    /// Reads the result file at `path`.
    public static func read(_ path: String) throws(ResultError) -> TabulatedResult {
        let input = try ResultError.open(path)
        return try ResultStreamParser(input: input).parse()
    }

    /// Reads the result files at `paths` at once, each on a thread of its own (the first on the
    /// calling thread), so the two results of a diff take about as long as the larger one on two
    /// cores. The outcomes come in the order of `paths`, exactly as ``read(_:)`` gives them.
    public static func read(all paths: [String]) -> [Result<TabulatedResult, ResultError>] {
        guard let first = paths.first else { return [] }
        let others = paths.dropFirst().map(ReadJob.init)
        var started: [ReadJob] = []
        for job in others {
            let context = Unmanaged.passRetained(job).toOpaque()
            let status = pthread_create(
                &job.thread, nil,
                { raw in
                    guard let raw else { return nil }
                    let job = Unmanaged<ReadJob>.fromOpaque(raw).takeRetainedValue()
                    job.outcome = ResultTableReader.outcome(job.path)
                    return nil
                }, context)
            if status == 0 {
                started.append(job)
            } else {
                // No thread to spare: read it here, after the others.
                Unmanaged<ReadJob>.fromOpaque(context).release()
            }
        }
        let firstOutcome = outcome(first)
        for job in started { pthread_join(job.thread, nil) }
        return [firstOutcome] + others.map { $0.outcome ?? outcome($0.path) }
    }

    /// ``read(_:)`` as a value.
    static func outcome(_ path: String) -> Result<TabulatedResult, ResultError> {
        do throws(ResultError) {
            return .success(try read(path))
        } catch {
            return .failure(error)
        }
    }

    /// Tabulates a result document held in memory.
    public static func tabulate(_ bytes: [UInt8], path: String) throws(ResultError) -> TabulatedResult {
        try tabulate(bytes, path: path, plainScanner: true)
    }

    /// ``tabulate(_:path:)``, with or without the plain-phase scanner (tests compare the two).
    static func tabulate(_ bytes: [UInt8], path: String, plainScanner: Bool) throws(ResultError) -> TabulatedResult {
        guard bytes.count <= ResultLimits.maximumFileBytes else {
            throw .tooLarge(path: path, bytes: bytes.count, limit: ResultLimits.maximumFileBytes)
        }
        let outcome: Result<TabulatedResult, ResultError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(ResultError) {
                return .success(
                    try ResultStreamParser(
                        input: JSONInput(path: path, bytes: buffer, maximumTokenBytes: ResultLimits.maximumTokenBytes), plainScanner: plainScanner
                    ).parse())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

/// One file of ``ResultTableReader/read(all:)`` read on its own thread: written by that thread
/// only, read by the caller only after `pthread_join`.
private final class ReadJob: @unchecked Sendable {
    let path: String
    var thread = pthread_t()
    var outcome: Result<TabulatedResult, ResultError>?

    init(path: String) { self.path = path }
}
