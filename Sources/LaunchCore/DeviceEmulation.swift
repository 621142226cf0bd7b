/// How much slower an emulated device is than the host, per kind of cost.
///
/// A factor of 2 for `.draw` means a drawing phase that took 10 ms on the host waits another 10 ms
/// inside itself, so it lasts 20 ms of wall time, as it would on the slower device.
public struct DeviceEmulation: Sendable, Equatable {
    /// Factor per kind, at least 1 (the host is never made faster).
    public var factors: [PhaseKind: Double]

    /// The largest factor: a million times slower than the host.
    public static let maximumFactor = 1e6

    /// Kinds not given get 1; factors below 1 (or not finite) become 1, above ``maximumFactor`` that.
    public init(factors: [PhaseKind: Double]) {
        var all: [PhaseKind: Double] = [:]
        for kind in PhaseKind.allCases {
            let f = factors[kind] ?? 1
            all[kind] = f.isFinite ? min(Self.maximumFactor, max(1, f)) : 1
        }
        self.factors = all
    }

    /// The factor for `kind` (1 when not given).
    public func factor(for kind: PhaseKind) -> Double {
        factors[kind] ?? 1
    }

    /// The extra nanoseconds a phase of `kind` with `selfNanoseconds` of its own work must wait.
    public func extraNanoseconds(for kind: PhaseKind, selfNanoseconds: UInt64) -> UInt64 {
        let f = factor(for: kind)
        guard f > 1 else { return 0 }
        return UInt64((Double(selfNanoseconds) * (f - 1)).rounded())
    }

    /// The form passed to a child process: `cpu=2.5,io=3,decode=2,draw=2`.
    public var encoded: String {
        PhaseKind.allCases.map { "\($0.rawValue)=\(factor(for: $0))" }.joined(separator: ",")
    }

    /// Parses ``encoded``; `nil` when malformed.
    public init?(encoded: String) {
        var factors: [PhaseKind: Double] = [:]
        for part in encoded.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let kind = PhaseKind(rawValue: String(pair[0])), let value = Double(String(pair[1])),
                value.isFinite, value >= 1
            else { return nil }
            factors[kind] = value
        }
        self.init(factors: factors)
    }
}
