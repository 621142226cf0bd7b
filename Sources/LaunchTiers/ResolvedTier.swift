import LaunchCore

/// A device tier resolved once for a launch request: the tier found by name (the built-in table and
/// a user's tiers file), its factors on this host (a calibrated tier on this host's calibration, or
/// on a given one: a stored baseline's), and what a result records of it. Every target uses it: the
/// built-in app stretches its own phases by ``factors``, a program is throttled from outside by the
/// cpu factor.
public struct ResolvedTier: Equatable, Sendable {
    /// The tier as the table defines it.
    public let device: DeviceTier
    /// The factor of each kind of cost on this host.
    public let factors: [PhaseKind: Double]
    /// What the result records: the factors, the budgets, the host reference and the calibration.
    public let info: TierInfo

    public init(device: DeviceTier, factors: [PhaseKind: Double], reference: HostReference?, calibration: CalibrationInfo?) {
        self.device = device
        self.factors = factors
        self.info = TierInfo(
            name: device.name, factors: factors, memoryBudget: device.memoryBudget, hostReference: reference?.seconds,
            backgroundMemory: device.backgroundMemory, calibration: calibration)
    }

    /// The tier `name` from the built-in table and `tiersFile`, resolved on `calibration` when it is
    /// given, else (for a calibrated tier only) on `hostCalibration()`, this host's: asked for only
    /// when the tier needs it, since measuring one takes seconds.
    public static func resolve(
        named name: String, tiersFile: String?, calibration: (HostReference, CalibrationInfo)? = nil,
        hostCalibration: () throws -> (HostReference, CalibrationInfo)
    ) throws -> ResolvedTier {
        let device = try TierTable.load(userFile: tiersFile).tier(named: name)
        guard device.referenceSeconds != nil else {
            return ResolvedTier(device: device, factors: device.factors(host: nil), reference: nil, calibration: nil)
        }
        let (reference, info) = try calibration ?? hostCalibration()
        return ResolvedTier(device: device, factors: device.factors(host: reference), reference: reference, calibration: info)
    }

    /// The cpu factor alone: what can be applied to a program from outside.
    public var cpuFactor: Double { factors[.cpu] ?? 1 }

    /// The memory budget (bytes), when the tier has one.
    public var memoryBudget: Int? { device.memoryBudget }
}
