import Testing

@testable import LaunchApp

/// The app's arguments, parsed as `launchprof run` passes them, and what it refuses.
@Suite struct AppArgumentsTests {
    @Test func everyOptionIsRead() throws {
        let options = try BuiltInApp.Options(arguments: [
            "--manifest", "/m.json", "--snapshot", "/s.png", "--no-snapshot", "--touch", "Loading", "--touch", "Ready",
            "--seed", "42", "--force-decode-race", "--check-tap", "7", "--check-tap", "AC"
        ])
        #expect(options.manifest == "/m.json")
        #expect(options.snapshot == "/s.png")
        #expect(!options.writeSnapshot)
        #expect(options.touch == ["Loading", "Ready"])
        #expect(options.seed == 42)
        #expect(options.forceDecodeRace)
        #expect(options.checkTaps == ["7", "AC"])
    }

    @Test func noArgumentsAreTheDefaults() throws {
        let options = try BuiltInApp.Options(arguments: [])
        #expect(options == BuiltInApp.Options())
        #expect(options.writeSnapshot && options.seed == nil && !options.forceDecodeRace && options.checkTaps.isEmpty)
    }

    @Test func theLastOfARepeatedValueWins() throws {
        let options = try BuiltInApp.Options(arguments: ["--manifest", "/a.json", "--manifest", "/b.json"])
        #expect(options.manifest == "/b.json")
    }

    @Test(arguments: ["--bogus", "manifest", "-m", "--MANIFEST"])
    func anUnknownArgumentIsRefusedByName(argument: String) {
        #expect(throws: AppRefusal(message: "unknown app argument '\(argument)'")) {
            try BuiltInApp.Options(arguments: ["--manifest", "/m.json", argument])
        }
    }

    /// A value is taken as it is, even one that looks like an option: `--touch --seed` touches "--seed".
    @Test func aValueIsNeverReadAsAnOption() throws {
        let options = try BuiltInApp.Options(arguments: ["--touch", "--seed"])
        #expect(options.touch == ["--seed"])
        #expect(options.seed == nil)
    }

    @Test(arguments: ["x", "-1", "1.5", "18446744073709551616", " 7"])
    func aSeedThatIsNotAWholeNumberInRangeIsRefused(value: String) {
        #expect(throws: AppRefusal(message: "--seed expects a whole number from 0 to 18446744073709551615, not '\(value)'")) {
            try BuiltInApp.Options(arguments: ["--seed", value])
        }
    }

    @Test func aSeedWithoutItsValueIsRefused() {
        #expect(throws: AppRefusal(message: "--seed expects a whole number from 0 to 18446744073709551615, not ''")) {
            try BuiltInApp.Options(arguments: ["--manifest", "/m.json", "--seed"])
        }
    }

    @Test(arguments: [UInt64(0), 1, UInt64.max])
    func theSeedsLimitsAreAccepted(seed: UInt64) throws {
        #expect(try BuiltInApp.Options(arguments: ["--seed", String(seed)]).seed == seed)
    }
}
