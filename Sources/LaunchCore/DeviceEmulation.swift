/// How much slower an emulated device is than the host, per kind of cost.
///
/// A factor of 2 for `.draw` means a drawing phase that took 10 ms on the host waits another 10 ms
/// inside itself, so it lasts 20 ms of wall time, as it would on the slower device.
public struct DeviceEmulation: Sendable, Equatable {
    /// Factor per kind, at least 1 (the host is never made faster).
    public var factors: [PhaseKind: Double]
    /// The core's clock, in GHz, at which ``factors`` hold: the calibration's (its references are
    /// kept in clock cycles at this clock). A run reads the clock it runs at while its waits spin
    /// (``ClockTries``) and stretches by the factor times that clock over this one, so the device
    /// keeps its speed while the host's clock moves. `nil`: the factors hold at any clock (a tier
    /// with fixed factors), nothing is scaled.
    public var clockGigahertz: Double?

    /// The largest factor: a million times slower than the host.
    public static let maximumFactor = 1e6

    /// Kinds not given get 1; factors below 1 (or not finite) become 1, above ``maximumFactor`` that.
    public init(factors: [PhaseKind: Double], clockGigahertz: Double? = nil) {
        var all: [PhaseKind: Double] = [:]
        for kind in PhaseKind.allCases {
            let f = factors[kind] ?? 1
            all[kind] = f.isFinite ? min(Self.maximumFactor, max(1, f)) : 1
        }
        self.factors = all
        self.clockGigahertz = clockGigahertz.flatMap { ClockProbe.plausibleGigahertz.contains($0) ? $0 : nil }
    }

    /// The most a run's clock may differ from ``clockGigahertz`` and still scale the factors
    /// (a reading further off is a misreading, and the factors are used as they are).
    public static let clockRatioRange = 0.5...2.0

    /// The factor for `kind` (1 when not given).
    public func factor(for kind: PhaseKind) -> Double {
        factors[kind] ?? 1
    }

    /// The extra nanoseconds a phase of `kind` with `selfNanoseconds` of its own work must wait,
    /// when the core's clock reads `clock` GHz (`nil`: unknown): the phase lasts its work times the
    /// factor times `clock` over ``clockGigahertz`` — work that took longer because the clock ran
    /// slower is as many cycles, and as long on the device.
    public func extraNanoseconds(for kind: PhaseKind, selfNanoseconds: UInt64, atClock clock: Double? = nil) -> UInt64 {
        let f = factor(for: kind)
        guard f > 1 else { return 0 }
        let scaled = f * clockRatio(clock)
        guard scaled > 1 else { return 0 }
        return UInt64((Double(selfNanoseconds) * (scaled - 1)).rounded())
    }

    /// `clock` over ``clockGigahertz``, or 1 when either is unknown or the ratio is outside
    /// ``clockRatioRange``.
    public func clockRatio(_ clock: Double?) -> Double {
        guard let clock, let calibrated = clockGigahertz else { return 1 }
        let ratio = clock / calibrated
        return Self.clockRatioRange.contains(ratio) ? ratio : 1
    }

    /// The form passed to a child process: `cpu=2.5,io=3,decode=2,draw=2`, then `clock=4.3` when
    /// the factors hold at a clock.
    public var encoded: String {
        let factors = PhaseKind.allCases.map { "\($0.rawValue)=\(factor(for: $0))" }
        return (factors + (clockGigahertz.map { ["\(Self.clockKey)=\($0)"] } ?? [])).joined(separator: ",")
    }

    /// The key of ``clockGigahertz`` in ``encoded``.
    static let clockKey = "clock"

    /// Parses ``encoded``; `nil` when malformed.
    public init?(encoded: String) {
        var factors: [PhaseKind: Double] = [:]
        var clock: Double?
        for part in encoded.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Double(String(pair[1])), value.isFinite else { return nil }
            if pair[0] == Self.clockKey, ClockProbe.plausibleGigahertz.contains(value) {
                clock = value
            } else if let kind = PhaseKind(rawValue: String(pair[0])), value >= 1 {
                factors[kind] = value
            } else {
                return nil
            }
        }
        self.init(factors: factors, clockGigahertz: clock)
    }
}
