import Testing
import LaunchExport

@Suite struct PercentWordingTests {
    /// A change is always signed, one that rounds to 0.0% too: a tiny fall is `-0.0%`, never `0.0%`.
    @Test(arguments: [
        (3.0, "+3.0%"), (-8.04, "-8.0%"), (0.0, "+0.0%"), (-0.0455, "-0.0%"), (0.0455, "+0.0%"), (-0.05, "-0.1%")
    ])
    func percentIsAlwaysSigned(_ value: Double, _ expected: String) {
        #expect(ComparisonWording.percent(value) == expected)
    }
}
