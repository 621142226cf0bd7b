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
    public private(set) var info: TierInfo

    public init(device: DeviceTier, factors: [PhaseKind: Double], reference: HostReference?, calibration: CalibrationInfo?) {
        self.device = device
        self.factors = factors
        self.info = TierInfo(
            name: device.name, factors: factors, memoryBudget: device.memoryBudget, hostReference: reference?.seconds,
            backgroundMemory: device.backgroundMemory, calibration: calibration)
    }

    /// The tier `name` from the built-in table and `tiersFile`, resolved on `calibration` when it is
    /// given, else (for a calibrated tier only) on `hostCalibration()`, this host's: asked for only
    /// when the tier needs it, since measuring one takes seconds. A calibration that knows its clock
    /// is counted in the core's clock cycles and turned into seconds at the clock `clock()` reads now
    /// (``HostClock/gigahertz(tries:)``, asked for only then): the run's own CPU time moves with the
    /// host's clock, and its factors move against it, so the emulated device takes the same time
    /// whatever the clock does (docs/tiers.md, "Counted in clock cycles"). When the clock cannot be
    /// read now, the calibration's own seconds are used (``TierInfo/clockGigahertz`` is then absent).
    public static func resolve(
        named name: String, tiersFile: String?, calibration: (HostReference, CalibrationInfo)? = nil,
        clock: () -> Double? = { nil }, hostCalibration: () throws -> (HostReference, CalibrationInfo)
    ) throws -> ResolvedTier {
        let device = try TierTable.load(userFile: tiersFile).tier(named: name)
        guard device.referenceSeconds != nil else {
            return ResolvedTier(device: device, factors: device.factors(host: nil), reference: nil, calibration: nil)
        }
        let (calibrated, info) = try calibration ?? hostCalibration()
        let now = calibrated.clockGigahertz == nil ? nil : clock()
        let reference = now.map { calibrated.at(clock: $0) } ?? calibrated
        var tier = ResolvedTier(device: device, factors: device.factors(host: reference), reference: reference, calibration: info)
        tier.info.clockGigahertz = now
        return tier
    }

    /// The calibration a result's `tier` was resolved on, for another run to be stretched as it was
    /// (`check` against a stored baseline): its host reference at the calibration's own clock (the
    /// result records them at the clock it ran at), or as recorded when either clock is unknown.
    public static func calibration(of tier: TierInfo) -> HostReference? {
        guard let seconds = tier.hostReference else { return nil }
        let recorded = HostReference(seconds: seconds, clockGigahertz: tier.clockGigahertz)
        guard let own = tier.calibration?.clockGigahertz else { return HostReference(seconds: seconds) }
        return tier.clockGigahertz == nil ? HostReference(seconds: seconds, clockGigahertz: own) : recorded.at(clock: own)
    }

    /// The cpu factor alone: what can be applied to a program from outside.
    public var cpuFactor: Double { factors[.cpu] ?? 1 }

    /// The memory budget (bytes), when the tier has one.
    public var memoryBudget: Int? { device.memoryBudget }
}
