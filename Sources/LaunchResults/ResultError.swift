import LaunchCore

/// Where in a result document a problem is: the key path (e.g. `runs[3].phases[12].duration`) and
/// the line and column (from 1).
public struct ResultPosition: Equatable, Sendable {
    public var keyPath: String
    public var line: Int
    public var column: Int
}

/// LaunchResults' one error: a result file (or stored result) that cannot be read, stored or found.
/// Every case names its file, directory or reference; one renderer, ``description``: `subject: reason`.
public enum ResultError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be opened or read; `reason` is the system's (`strerror`).
    case cannotRead(path: String, reason: String)
    /// Not a regular file: `kind` says what it is (a directory, a device…).
    case notRegularFile(path: String, kind: String)
    /// Over the size limit (`limit` bytes) before reading.
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// Grew past the size limit (`limit` bytes) while being read.
    case grewPastLimit(path: String, limit: Int)
    /// Not JSON: the strict reader's `problem` at `position`.
    case invalidJSON(path: String, position: ResultPosition, problem: String)
    /// JSON, but not a sound result: a key missing, a wrong type, an inconsistency.
    case malformed(path: String, position: ResultPosition?, problem: String)
    /// Refused whole: a reader limit, no `schemaVersion`, a schema version this build cannot read.
    case refused(path: String, position: ResultPosition?, reason: String)
    /// `record` outside a git work tree: results in `directory` are named by commit.
    case noGitCommit(directory: String)
    /// `reference` is neither an existing result file nor a git revision.
    case notFileOrRevision(reference: String)
    /// No stored result for `reference` (`commit`): `searched` says where it was looked for, `advice` what to do.
    case notStored(reference: String, commit: String, searched: String, advice: String)
    /// The result to be written to `path` could not be: the file system's refusal (``FileIO/writeAtomically(_:to:)-(_,[UInt8])``),
    /// which names the file or directory it failed on.
    case cannotWrite(path: String, CoreError)
    /// The result to be written to `path` holds a value JSON cannot hold.
    case unencodable(path: String, PrettyJSON.Unencodable)

    /// The file, directory or reference the error is about.
    public var subject: String {
        switch self {
        case .cannotRead(let path, _), .notRegularFile(let path, _), .tooLarge(let path, _, _), .grewPastLimit(let path, _),
            .invalidJSON(let path, _, _), .malformed(let path, _, _), .refused(let path, _, _), .unencodable(let path, _):
            return path
        case .noGitCommit(let directory): return directory
        case .notFileOrRevision(let reference), .notStored(let reference, _, _, _): return reference
        case .cannotWrite(let path, let error): return error.path ?? path
        }
    }

    /// Why, without the subject.
    public var reason: String {
        switch self {
        case .cannotRead(_, let reason): return "cannot read: \(reason)"
        case .notRegularFile(_, let kind): return "is \(kind): results are read from regular files only"
        case .tooLarge(_, let bytes, let limit): return "is \(bytes) bytes, over the \(limit >> 20) MiB limit for a result"
        case .grewPastLimit(_, let limit): return "grew past the \(limit >> 20) MiB limit for a result while being read"
        case .invalidJSON(_, let position, let problem):
            let inKey = position.keyPath.isEmpty ? "" : ", in \(position.keyPath)"
            return "not a launchprof result (invalid JSON at line \(position.line), column \(position.column)\(inKey): \(problem))"
        case .malformed(_, let position, let problem): return "malformed result: \(Self.located(problem, position))"
        case .refused(_, let position, let reason): return Self.located(reason, position)
        case .noGitCommit:
            return "record needs a git work tree to name the result by its commit (use `launchprof run --output FILE` outside one)"
        case .notFileOrRevision: return "neither a result file nor a git revision"
        case .notStored(let reference, let commit, let searched, let advice):
            return "no stored result for \(reference) (commit \(commit.prefix(12)))\(searched); \(advice)"
        case .cannotWrite(_, let error): return error.reason
        case .unencodable(_, let refusal): return refusal.description
        }
    }

    public var description: String { "\(subject): \(reason)" }

    /// `text` with its key path before it and its line and column after it, when known.
    private static func located(_ text: String, _ position: ResultPosition?) -> String {
        guard let position else { return text }
        let at = position.keyPath.isEmpty ? "" : "\(position.keyPath): "
        return "\(at)\(text) (line \(position.line), column \(position.column))"
    }
}

extension ResultError {
    /// The result file at `path` that its ``JSONInput`` could not open or read.
    init(path: String, _ error: JSONInputError) {
        switch error {
        case .cannotRead(let reason): self = .cannotRead(path: path, reason: reason)
        case .notRegularFile(let kind): self = .notRegularFile(path: path, kind: kind)
        case .tooLarge(let bytes, let limit): self = .tooLarge(path: path, bytes: bytes, limit: limit)
        case .grewPastLimit(let limit): self = .grewPastLimit(path: path, limit: limit)
        }
    }

    /// Opens the result file at `path` for reading, within the result limits.
    static func open(_ path: String) throws(ResultError) -> JSONInput {
        do {
            return try JSONInput(path: path, limit: ResultLimits.maximumFileBytes, maximumTokenBytes: ResultLimits.maximumTokenBytes)
        } catch {
            throw ResultError(path: path, error)
        }
    }
}
