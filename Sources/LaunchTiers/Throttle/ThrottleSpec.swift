/// How one run of a foreign program is held back to emulate a slower device (`--tier`, issue 15
/// part 6): its CPU by the tier's cpu factor, and optionally its memory (`--enforce-memory`).
///
/// Only the cpu factor can be applied from outside a program; a tier's io, decode and draw factors
/// cannot (see docs/tiers.md, "Tiers for real programs").
public struct ThrottleSpec: Equatable, Sendable {
    /// The cpu factors accepted: 1 (no slowdown) to 1,000. A cgroup period is at most 1 s and a
    /// quota at least 1 ms, so 1,000 is the largest factor the kernel's bandwidth control can give
    /// at the 1 ms quota that keeps it accurate (``CPUBandwidth``).
    public static let factorRange: ClosedRange<Double> = 1...1000
    /// The memory limits accepted: 1 MiB to 1 TiB. Below a MiB no program can even be loaded.
    public static let memoryLimitRange: ClosedRange<Int> = (1 << 20)...(1 << 40)

    /// The device's cores (``coreRange``): up to this many of the program's threads compute at once,
    /// each ``cpuFactor`` times slower; more share them (docs/tiers.md, "Cores").
    public static let coreRange = 1...256

    /// Each thread of the program runs this many times slower (≥ 1).
    public var cpuFactor: Double
    /// The emulated device's cores (1 unless the tier says otherwise).
    public var cores: Int
    /// Bytes the program may use (its memory cgroup's limit, swap included); past it the kernel
    /// kills it, as the device would. `nil`: no limit.
    public var memoryLimit: Int?

    public init(cpuFactor: Double, memoryLimit: Int? = nil, cores: Int = 1) {
        self.cpuFactor = cpuFactor
        self.cores = cores
        self.memoryLimit = memoryLimit
    }

    /// Checks the values against their ranges (NaN and infinities are out of range).
    public func validate() throws(TierError) {
        guard cpuFactor.isFinite, Self.factorRange.contains(cpuFactor) else { throw .throttle(.factorOutOfRange(cpuFactor)) }
        if let memoryLimit, !Self.memoryLimitRange.contains(memoryLimit) { throw .throttle(.memoryLimitOutOfRange(memoryLimit)) }
        guard Self.coreRange.contains(cores) else { throw .throttle(.coresOutOfRange(cores)) }
    }
}
