import LaunchChangePoints
import LaunchCore
import Testing

/// The one key of a series: reports list series by target name (as they print it), and a manifest
/// and a program of the same name stay two series.
struct SeriesKeyTests {
    static func key(_ kind: SeriesTarget.Kind, _ name: String, phase: String = "layout") -> SeriesKey {
        SeriesKey(environment: "env", tier: "host", metric: .time, target: SeriesTarget(kind: kind, name: name), phase: phase)
    }

    @Test func keysSortByTheTargetsNameBeforeItsKind() {
        let keys = [Self.key(.command, "zeta"), Self.key(.manifest, "alpha"), Self.key(.command, "alpha", phase: "decode")]
        #expect(keys.sorted().map(\.target.name) == ["alpha", "alpha", "zeta"])
        #expect(keys.sorted().first == Self.key(.command, "alpha", phase: "decode"), "same name: the kind, then the phase")
    }

    @Test func aManifestAndAProgramOfTheSameNameAreTwoSeries() {
        #expect(Set([Self.key(.manifest, "default"), Self.key(.command, "default")]).count == 2)
    }
}
