/// Why a dashboard could not be made or written; the CLI prints it and exits 2.
public enum DashboardError: Error, Equatable, CustomStringConvertible {
    /// The series and their change points do not pair up.
    case mismatched(series: Int, detected: Int)
    /// A series names a commit the history order does not hold.
    case unorderedCommit(String, phase: String)
    /// The output exists and is not a directory, or is a directory with other files than a dashboard's.
    case notADashboard(path: String, reason: String)
    /// A file-system call failed.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .mismatched(let series, let detected): return "\(series) series but change points for \(detected)"
        case .unorderedCommit(let commit, let phase): return "series '\(phase)': commit \(commit) is not in the history's order"
        case .notADashboard(let path, let reason): return "\(path): \(reason)"
        case .io(let path, let reason): return "\(path): \(reason)"
        }
    }
}
