#if canImport(Glibc)
import Glibc
#endif
import CTierReference
import LaunchCore

/// LaunchTiers' one error: a tiers file, a calibration file or a reference sample that cannot be
/// used, a tier name that names none, a reference workload that could not run, or a run that could
/// not be throttled (``ThrottleProblem``). Each case carries
/// the facts (the file, the key path, the line and column, what was expected); every message is
/// rendered here, by ``description``.
public enum TierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `file` nests deeper than `limit` levels at `line`:`column` (a tiers file needs 4).
    case tooDeep(file: String, line: Int, column: Int, limit: Int)
    /// `file` is not JSON (``CoreError/invalidJSON(offset:line:column:reason:)``). `file` is a tiers
    /// or calibration file, or ``HostReference/sampleSource`` for the line a sample process printed.
    case invalidJSON(file: String, CoreError)
    /// The value at `keyPath` of `file` (`tiers[2].factors.cpu`; `nil`: the document) is not what it
    /// must be.
    case invalidValue(file: String, keyPath: String?, expected: Expected)
    /// A tier entry (`keyPath`, `tiers[2]`) with a key it may not have; `allowed` are those it may.
    case unknownKey(file: String, keyPath: String, key: String, allowed: [String])
    /// A per-kind object's key (`keyPath`, `tiers[2].factors.gpu`) that is not a phase kind.
    case unknownKind(file: String, keyPath: String)
    /// A tier entry with both `referenceSeconds` and `factors` (`both`), or neither.
    case referenceOrFactors(file: String, keyPath: String, both: Bool)
    /// No tier is named `name`; `known` are the tiers there are.
    case unknownTier(name: String, known: [String])
    /// A reference workload (``HostReference``) that could not run (no memory, libpng refused):
    /// `workload` is `setup` or `decode`, `code` CTierReference's error code (`LP_REF_*`), `errno`
    /// the `errno` when it says more, else 0.
    case reference(workload: String, code: Int32, errno: Int32)
    /// The io reference workload could not `step` its files in `directory` (the temporary directory
    /// it makes them in, or the one it made), for `reason` (the system's message).
    case referenceFiles(directory: String, step: ReferenceFileStep, reason: String)
    /// A sample process (`launchprof tiers --reference-sample`) that did not give its times.
    case sampleFailed(SampleFailure)
    /// A run that could not be throttled to its tier (``RunThrottle``, ``ThrottleSpec/validate()``).
    case throttle(ThrottleProblem)

    /// What a key's value must be, as the message says it after "expected".
    public enum Expected: Equatable, Sendable, CustomStringConvertible {
        /// A tiers file's document: an object with a `tiers` array.
        case tierList
        /// A calibration file's document.
        case jsonObject
        case object
        case string
        case nonEmptyString
        /// An object of the phase kinds (`referenceSeconds`, `factors`).
        case kindObject
        /// A positive number of at most `maximum` (a factor, a reference time).
        case positiveNumber(maximum: Double)
        /// A positive number of seconds (a calibration's or a sample's reference time).
        case seconds
        /// A positive number of MiB of at most `maximum`.
        case mebibytes(maximum: Double)
        /// A whole number of cores in `range`.
        case cores(ClosedRange<Int>)
        /// A calibration file's format number.
        case format(Int)
        /// A calibration's host fingerprint: these strings.
        case strings([String])
        /// A calibration's host fingerprint: these whole numbers.
        case wholeNumbers([String])
        /// From 1 to `maximum` per-process times (a calibration's samples).
        case samples(maximum: Int)

        public var description: String {
            switch self {
            case .tierList: return #"an object with a "tiers" array"#
            case .jsonObject: return "a JSON object"
            case .object: return "an object"
            case .string: return "a string"
            case .nonEmptyString: return "a non-empty string"
            case .kindObject: return "an object of \(PhaseKind.allCases.map(\.rawValue).joined(separator: ", "))"
            case .positiveNumber(let maximum): return "a positive number (at most \(Self.whole(maximum)))"
            case .seconds: return "a positive number of seconds"
            case .mebibytes(let maximum): return "a positive number of MiB (at most \(Self.whole(maximum)))"
            case .cores(let range): return "a whole number of cores from \(range.lowerBound) to \(range.upperBound)"
            case .format(let format): return "\(format)"
            case .strings(let names): return "the strings \(Self.list(names))"
            case .wholeNumbers(let names): return "the whole numbers \(Self.list(names))"
            case .samples(let maximum): return "1 to \(maximum) per-process times"
            }
        }

        /// `a, b and c`.
        private static func list(_ names: [String]) -> String {
            names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        }

        private static func whole(_ number: Double) -> String {
            number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
        }
    }

    /// Why a sample process gave no reference times.
    public enum SampleFailure: Equatable, Sendable, CustomStringConvertible {
        /// launchprof's own executable (`/proc/self/exe`) was not found.
        case noExecutable
        /// `executable` could not be started, for `reason`.
        case cannotStart(executable: String, reason: String)
        /// It ran for over `seconds` and was ended.
        case timedOut(seconds: Int)
        /// It exited with `status`, saying `stderr` (trimmed).
        case exited(status: Int32, stderr: String)

        public var description: String {
            switch self {
            case .noExecutable: return "cannot find launchprof's own executable"
            case .cannotStart(let executable, let reason): return "cannot start \(executable): \(reason)"
            case .timedOut(let seconds): return "the sample process ran for over \(seconds) s"
            case .exited(let status, let stderr): return "exit \(status): \(stderr)"
            }
        }
    }

    public var description: String {
        switch self {
        case .tooDeep(let file, let line, let column, let limit):
            return "\(file): line \(line), column \(column): nested more than \(limit) levels deep (a tiers file needs 4)"
        case .invalidJSON(let file, let error):
            return "\(file): \(error)"
        case .invalidValue(let file, let keyPath?, let expected):
            return "\(file): \(keyPath): expected \(expected)"
        case .invalidValue(let file, nil, let expected):
            return "\(file): expected \(expected)"
        case .unknownKey(let file, let keyPath, let key, let allowed):
            return "\(file): \(keyPath): unknown key \"\(key)\" (expected: \(allowed.joined(separator: ", ")))"
        case .unknownKind(let file, let keyPath):
            return "\(file): \(keyPath): unknown kind (expected \(PhaseKind.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .referenceOrFactors(let file, let keyPath, let both):
            return "\(file): \(keyPath): give either \"referenceSeconds\" (calibrated) or \"factors\" (fixed), not \(both ? "both" : "neither")"
        case .unknownTier(let name, let known):
            return "unknown tier '\(name)'\(NearestName.hint(for: name, among: known)) (tiers: \(known.joined(separator: ", ")); see `launchprof tiers`)"
        case .reference(let workload, let code, let errno):
            let reason = errno != 0 ? ": " + String(cString: strerror(errno)) : ""
            return "the \(workload) reference workload failed (code \(code))\(reason)"
        case .referenceFiles(let directory, let step, let reason):
            return "the io reference workload cannot \(step.rawValue) \(PlainText.oneLine(directory)): \(reason) (set TMPDIR to a writable directory)"
        case .sampleFailed(let failure):
            return "\(HostReference.sampleSource): \(failure)"
        case .throttle(let problem):
            return problem.description
        }
    }
}

/// What the io reference workload failed to do with its files (``TierError/referenceFiles(directory:step:reason:)``).
public enum ReferenceFileStep: String, Equatable, Sendable {
    /// Make its directory in the temporary directory, or a file in it.
    case create = "create its files in"
    case write = "write its files in"
    case read = "read its files in"
    case list = "list its files in"
    case lock = "lock its lock file in"

    /// The step CTierReference's error `code` (`LP_REF_IO_*`) names; `create` for any other.
    init(code: Int32) {
        switch code {
        case Int32(LP_REF_IO_WRITE): self = .write
        case Int32(LP_REF_IO_READ): self = .read
        case Int32(LP_REF_IO_LIST): self = .list
        case Int32(LP_REF_IO_LOCK): self = .lock
        default: self = .create
        }
    }
}
