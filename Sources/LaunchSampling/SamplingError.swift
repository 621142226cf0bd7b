/// Why wall-clock samples could not be taken or read (`--sample`): the module's one error.
public enum SamplingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// perf cannot record here (not installed, not allowed): what to change.
    case unavailable(String)
    /// perf started but failed, or its output could not be turned into samples.
    case perfFailed(String)
    /// `perf script`'s output is not what perf writes, or is past a limit: its file and line.
    case scriptFormat(file: String, line: Int, reason: String)
    /// A file could not be read.
    case unreadable(file: String, reason: String)

    public var description: String {
        switch self {
        case .unavailable(let reason): return reason
        case .perfFailed(let reason): return reason
        case .scriptFormat(let file, let line, let reason): return "\(file):\(line): \(reason)"
        case .unreadable(let file, let reason): return "\(file): \(reason)"
        }
    }
}
