import LaunchCore

/// An emulated device: how much slower than the host it is for each kind of cost, and how much
/// memory an app may use there before it is killed.
///
/// A tier is either *calibrated* (``referenceSeconds``: how long the device takes for launchprof's
/// fixed reference workload of each kind, so factors = device ÷ host, and a tier means the same device
/// on a fast laptop and on a slow CI runner) or *fixed* (``fixedFactors``, like a browser's CPU throttle).
public struct DeviceTier: Equatable, Sendable {
    public var name: String
    public var description: String
    /// Seconds the device takes for each reference workload (calibrated tiers).
    public var referenceSeconds: [PhaseKind: Double]?
    /// Factors used as they are (fixed tiers).
    public var fixedFactors: [PhaseKind: Double]?
    /// Resident memory above which the device would kill the app, in bytes.
    public var memoryBudget: Int?
    /// Dirty memory an app may keep in the background, in bytes (`backgroundMemoryMB`).
    public var backgroundMemory: Int?
    /// The device's CPU cores (``coreRange``), or `nil` when the tier does not say: how many of a
    /// program's threads compute at once, each slowed only by the cpu factor (docs/tiers.md, "Cores").
    public var cores: Int?

    /// The core counts a tier may state: 1 to 256.
    public static let coreRange = 1...256
    /// The cores a throttle assumes for a tier that states none: one, as before tiers had cores
    /// (a launch is mostly one thread).
    public static let assumedCores = 1

    /// The cores a throttle of a program gives this device: ``cores``, or ``assumedCores``.
    public var throttledCores: Int { cores ?? Self.assumedCores }

    public init(
        name: String, description: String, referenceSeconds: [PhaseKind: Double]? = nil,
        fixedFactors: [PhaseKind: Double]? = nil, memoryBudget: Int? = nil, backgroundMemory: Int? = nil, cores: Int? = nil
    ) {
        self.cores = cores
        self.backgroundMemory = backgroundMemory
        self.name = name
        self.description = description
        self.referenceSeconds = referenceSeconds
        self.fixedFactors = fixedFactors
        self.memoryBudget = memoryBudget
    }

    /// `true` for the `host` tier and any tier whose factors are all 1: nothing is emulated.
    public var isIdentity: Bool {
        referenceSeconds == nil && (fixedFactors ?? [:]).values.allSatisfy { $0 <= 1 }
    }

    /// The factors on this host: calibrated ones divide the device's reference time by the host's
    /// (never below 1: the host is not made faster).
    public func factors(host: HostReference?) -> [PhaseKind: Double] {
        if let referenceSeconds {
            guard let host else { return [:] }
            var factors: [PhaseKind: Double] = [:]
            for kind in PhaseKind.allCases {
                let device = referenceSeconds[kind] ?? 0
                let measured = host.seconds[kind] ?? 0
                factors[kind] = measured > 0 ? max(1, device / measured) : 1
            }
            return factors
        }
        var factors: [PhaseKind: Double] = [:]
        for kind in PhaseKind.allCases { factors[kind] = max(1, fixedFactors?[kind] ?? 1) }
        return factors
    }
}
