/// Why a run could not be throttled (``RunThrottle``, ``ThrottleSpec/validate()``), as facts: a value
/// out of its range, a mechanism that cannot be used here, a cgroup operation the kernel refused.
/// Thrown as LaunchTiers' one error, ``TierError/throttle(_:)``, which LaunchRunner carries as
/// `RunnerError.throttleFailed`; worded by ``description``, part of ``TierError``'s renderer.
public enum ThrottleProblem: Equatable, Sendable, CustomStringConvertible {
    /// The cpu factor is NaN, infinite or outside ``ThrottleSpec/factorRange``.
    case factorOutOfRange(Double)
    /// The memory limit is outside ``ThrottleSpec/memoryLimitRange``.
    case memoryLimitOutOfRange(Int)
    /// The device's core count is outside ``ThrottleSpec/coreRange``.
    case coresOutOfRange(Int)
    /// The mechanism asked for (`forcing:`) cannot be used here, and why.
    case unavailable(ThrottleMechanism, reason: String)
    /// A memory limit needs a cgroup, and none could be made here (why).
    case memoryLimitNeedsCgroup(reason: String)
    /// A cgroup file or directory operation failed.
    case cgroup(path: String, action: String, reason: String)
    /// The duty-cycling thread could not be started.
    case threadNotStarted(reason: String)

    public var description: String {
        switch self {
        case .factorOutOfRange(let factor):
            return
                "the cpu factor \(factor) is out of range: it must be from \(Self.format(ThrottleSpec.factorRange.lowerBound)) to \(Self.format(ThrottleSpec.factorRange.upperBound))"
        case .memoryLimitOutOfRange(let bytes):
            return "the memory limit of \(bytes) bytes is out of range: it must be from 1 MiB to 1 TiB"
        case .coresOutOfRange(let cores):
            return
                "the device's \(cores) cores are out of range: it must have from \(ThrottleSpec.coreRange.lowerBound) to \(ThrottleSpec.coreRange.upperBound)"
        case .unavailable(let mechanism, let reason):
            return "cannot throttle with \(mechanism.rawValue): \(reason)"
        case .memoryLimitNeedsCgroup(let reason):
            return "the memory limit needs a cgroup, and none can be made here: \(reason)"
        case .cgroup(let path, let action, let reason):
            return "\(path): cannot \(action): \(reason)"
        case .threadNotStarted(let reason):
            return "cannot start the throttling thread: \(reason)"
        }
    }

    /// `2` for 2.0, `2.5` for 2.5.
    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
