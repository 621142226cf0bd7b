import LaunchCore

/// An option's value, or a combination of options, that cannot be used: refused before anything
/// runs. Each case carries the facts (the option, the value as typed, the range), worded by
/// ``description``.
enum OptionProblem: Equatable, CustomStringConvertible {
    /// A number outside `option`'s documented range (``OptionRange``): `lower` and `upper` as the
    /// range is written, `unit` after it (`seconds`) or empty; `orAuto` when `auto` is accepted too.
    case outOfRange(option: String, lower: String, upper: String, unit: String, orAuto: Bool)
    /// A directory results are written into (`option`, `--store`) where none can be, for `reason`.
    case cannotWriteResults(option: String, directory: String, reason: String)
    /// `--input PATH` that cannot be examined, for `reason` (`strerror`).
    case inputUnreadable(path: String, reason: String)
    /// `--input PATH` that is not a regular file (only files are evicted from the page cache).
    case inputNotRegularFile(path: String)
    /// `--tap` without the `:` of `SECONDS:KEY`.
    case tapWithoutColon(argument: String)
    /// `--tap SECONDS:` with no key.
    case tapWithoutKey(argument: String)
    /// The built-in app at `app` could not be started to check the `--tap` keys.
    case tapCheckNotStarted(app: String)
    /// The built-in app at `app` refused the `--tap` keys: exit `status`, saying `refusal` (its
    /// stderr, which names the key; when empty, the status is said instead).
    case tapRefused(app: String, status: Int32, refusal: String)
    /// `--throttle` with a name that is none of the mechanisms'.
    case unknownThrottle(argument: String)
    /// No `--manifest`, and the default manifest (`relativePath`) was not found.
    case noManifest(relativePath: String)
    /// `--force-decode-race` with a manifest (`path`) whose strategies decode no image on a worker.
    case decodeRaceWithoutBackgroundDecode(path: String)
    /// `--sample`: the thread the runs are spawned on could not start.
    case samplingThreadNotStarted
    /// `command` (`record`) outside a git work tree with a commit, without `--output`.
    case needsCommit(command: String)

    var description: String {
        switch self {
        case .outOfRange(let option, let lower, let upper, let unit, let orAuto):
            return "\(option) must be from \(lower) to \(upper)\(unit.isEmpty ? "" : " " + unit)\(orAuto ? ", or auto" : "")"
        case .cannotWriteResults(let option, let directory, let reason):
            return "\(option) \(directory): cannot write results there (\(reason))"
        case .inputUnreadable(let path, let reason):
            return "--input \(path): \(reason)"
        case .inputNotRegularFile(let path):
            return "--input \(path): not a regular file (only files are evicted from the page cache)"
        case .tapWithoutColon(let argument):
            return "--tap expects SECONDS:KEY (for example 0.3:7), not \(PlainText.quoted(argument))"
        case .tapWithoutKey(let argument):
            return "--tap expects SECONDS:KEY (for example 0.3:7): the key is missing in \(PlainText.quoted(argument))"
        case .tapCheckNotStarted(let app):
            return "could not start \(app) to check the --tap keys"
        case .tapRefused(let app, let status, let refusal):
            return refusal.isEmpty ? "\(app) exited with status \(status) checking the --tap keys" : refusal
        case .unknownThrottle(let argument):
            return "--throttle must be cgroup-v1, cgroup-v2 or signals, not \(PlainText.quoted(argument))"
        case .noManifest(let relativePath):
            return "no --manifest given and \(relativePath) was not found (run from the launchprof checkout, or pass --manifest)"
        case .decodeRaceWithoutBackgroundDecode(let path):
            return "--force-decode-race: \(path) does not turn on strategies.backgroundDecode, so no image decodes on a worker to race with"
        case .samplingThreadNotStarted:
            return "--sample: cannot start the thread the runs are spawned on"
        case .needsCommit(let command):
            return "\(command) needs a git work tree with a commit to name the result by (use --output FILE outside one)"
        }
    }
}
