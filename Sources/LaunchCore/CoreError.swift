/// LaunchCore's one error: a file that could not be read or written (``FileIO``), a line of the
/// launch protocol the parser cannot accept (``ProtocolParser``), or text that is not acceptable
/// JSON (``JSONParser``). Every message is rendered here, by ``description``.
public enum CoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system refused to `action` (`read`, `write`, `create directory`…) the file at `path`;
    /// `reason` is the system's own message (`strerror`).
    case system(path: String, action: String, reason: String)
    /// The input at `path` is not a regular file: `type` is what it is (`a directory`, `a FIFO
    /// (named pipe)`, `a character device`…).
    case notRegularFile(path: String, type: String)
    /// The input at `path` is larger than `limit` bytes, the limit for `kind` (`a theme`, `this
    /// kind of file`): `size` is its size, or `nil` when it grew past the limit while being read.
    case tooLarge(path: String, size: Int?, limit: Int, kind: String)
    /// A file was to be written at `path`, where there is a directory.
    case directoryNotFile(path: String)
    /// `path` is a named pipe that nobody reads, so it cannot be written without waiting forever.
    case fifoWithoutReader(path: String)
    /// A line of the launch protocol (`docs/protocol.md`) the parser cannot accept: `line` is its
    /// 1-based number, `reason` what is wrong with it.
    case protocolLine(line: Int, reason: String)
    /// Text that is not acceptable JSON: `offset` is the offending byte's (the input's length for text
    /// that ends too soon), `line` and `column` are 1-based (a column counts characters, not bytes),
    /// and `reason` says what is wrong, or is `nil` for a character that cannot come there.
    case invalidJSON(offset: Int, line: Int, column: Int, reason: String?)

    /// The message: `path: reason` for a file, `protocol line 3: …`, `invalid JSON at line 2, column 5: …`.
    public var description: String { path.map { "\($0): \(reason)" } ?? reason }

    /// The file the error is about, when there is one.
    public var path: String? {
        switch self {
        case .system(let path, _, _), .notRegularFile(let path, _), .tooLarge(let path, _, _, _), .directoryNotFile(let path),
            .fifoWithoutReader(let path):
            path
        case .protocolLine, .invalidJSON: nil
        }
    }

    /// The message without the file's path: what a caller that names the file itself shows.
    public var reason: String {
        switch self {
        case .system(_, let action, let reason):
            return "cannot \(action): \(reason)"
        case .notRegularFile(_, let type):
            return "is \(type), not a regular file: launchprof reads inputs from regular files only"
        case .tooLarge(_, let size, let limit, let kind):
            let described = InputLimit.describe(limit)
            guard let size else { return "grew past the limit of \(described) for \(kind) while being read" }
            return "is \(size) bytes, larger than the limit of \(described) for \(kind)"
        case .directoryNotFile:
            return "is a directory, not a file"
        case .fifoWithoutReader:
            return "cannot write: it is a named pipe (FIFO) with no reader"
        case .protocolLine(let line, let reason):
            return "protocol line \(line): \(reason)"
        case .invalidJSON:
            return "invalid JSON\(position)"
        }
    }

    /// For ``invalidJSON(offset:line:column:reason:)``: `" at line L, column C"`, then `": reason"`
    /// when there is one, what follows "invalid JSON" in a caller's own message; empty otherwise.
    public var position: String {
        guard case .invalidJSON(_, let line, let column, let reason) = self else { return "" }
        return " at line \(line), column \(column)" + (reason.map { ": \($0)" } ?? "")
    }
}
