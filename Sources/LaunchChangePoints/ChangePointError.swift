/// Why a series or an option was refused, before any detection runs.
public enum ChangePointError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A point with no runs.
    case noRuns(commit: String)
    /// A measured run that is NaN, infinite or negative.
    case invalidValue(commit: String, run: Int, value: Double)
    /// A series mixing wall-time points and exact counts.
    case mixedKinds(commit: String)
    /// The same commit twice in one series.
    case duplicateCommit(String)
    /// An option outside its documented range.
    case optionOutOfRange(option: String, value: Double, range: ClosedRange<Double>)

    public var description: String {
        switch self {
        case .noRuns(let commit):
            return "commit \(commit): a point needs at least one run"
        case .invalidValue(let commit, let run, let value):
            return "commit \(commit), run \(run + 1): \(value) is not a measurement (a finite number, 0 or more)"
        case .mixedKinds(let commit):
            return "commit \(commit): a series holds either wall times or exact counts, not both"
        case .duplicateCommit(let commit):
            return "commit \(commit) appears twice in one series"
        case .optionOutOfRange(let option, let value, let range):
            return "\(option) \(value) is out of range (\(range.lowerBound) to \(range.upperBound))"
        }
    }
}
