import Testing
import LaunchCore

@Suite struct DurationFormatTests {
    @Test(arguments: [
        (0.00083, "830 µs"), (0.00125, "1.25 ms"), (2.31, "2.31 s"), (0.0123, "12.3 ms"), (0.123, "123 ms"),
        // The unit is chosen on the rounded value: never `1000 µs` or `1000 ms`.
        (999.5e-6, "1.00 ms"), (999.4e-6, "999 µs"), (0.001, "1.00 ms"), (0.9995, "1.00 s"), (0.9994, "999 ms"), (1.0, "1.00 s"),
        // Rounding up to a new power of ten keeps three significant digits.
        (0.009996, "10.0 ms"), (0.4e-6, "0.400 µs"), (3725.0, "3725 s"), (-0.00083, "-830 µs")
    ])
    func unitThatFits(seconds: Double, expected: String) {
        #expect(DurationFormat.format(seconds) == expected)
    }

    @Test func zeroAndMissingValuesAreNeverPrintedAsAFakeZero() {
        #expect(DurationFormat.format(0) == "0 s")
        #expect(DurationFormat.format(.nan) == "n/a")
        #expect(DurationFormat.format(.infinity) == "inf")
        #expect(DurationFormat.format(-.infinity) == "-inf")
        // A tiny but real time is never rounded to 0 either.
        #expect(DurationFormat.format(1e-9) == "0.00100 µs")
    }

    @Test(arguments: [(0, "1 ms"), (1, "1 ms"), (2, "1.3 ms"), (3, "1.25 ms"), (5, "1.2500 ms"), (9, "1.25000000 ms")])
    func precisionIsSignificantDigits(digits: Int, expected: String) {
        #expect(DurationFormat.format(0.00125, digits: digits) == expected)
    }

    @Test func spreadTakesTheValuesUnitAndDecimals() {
        #expect(DurationFormat.format(0.0123, spread: 0.0004) == "12.3 ms ± 0.4 ms")
        #expect(DurationFormat.format(0.00086, spread: 0.000054) == "860 µs ± 54 µs")
        #expect(DurationFormat.format(0.0025, spread: 0.00001) == "2.50 ms ± 0.01 ms")
        #expect(DurationFormat.format([0.0123, 0.0004, 0.2], like: 0.0123) == ["12.3 ms", "0.4 ms", "200.0 ms"])
    }

    @Test func signedChanges() {
        #expect(DurationFormat.signed(0.0012) == "+1.20 ms")
        #expect(DurationFormat.signed(-0.0012) == "-1.20 ms")
        #expect(DurationFormat.signed(0) == "+0 s")
        #expect(DurationFormat.signed(.nan) == "n/a")
    }
}
