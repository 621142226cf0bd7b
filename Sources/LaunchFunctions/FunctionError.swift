/// Why a function profile could not be made: the module's one error.
public enum FunctionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A Callgrind output file that is not what Callgrind writes, or past a limit: its path and line.
    case callgrindFormat(file: String, line: Int, reason: String)
    /// The file could not be read.
    case unreadable(file: String, reason: String)

    public var description: String {
        switch self {
        case .callgrindFormat(let file, let line, let reason): return "\(file):\(line): \(reason)"
        case .unreadable(let file, let reason): return "\(file): \(reason)"
        }
    }
}
