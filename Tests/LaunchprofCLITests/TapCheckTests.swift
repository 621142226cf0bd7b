import LaunchprofTestSupport
import Testing

/// `launchprof-app --check-tap KEY`: the app, not the CLI, knows its theme's keys and its calculator
/// (the CLI imports no app module); `run --tap` asks it before any run and shows its refusal.
@Suite struct TapCheckTests {
    static let app = BuiltProducts.executable("launchprof-app")
    static let manifest = BuiltProducts.source("Fixtures/default/manifest.json")
    static let theme = BuiltProducts.source("Fixtures/default/theme.xml")

    @Test func keysOfTheThemeThatTheCalculatorKnowsPass() throws {
        let outcome = try CLI.run(["--manifest", Self.manifest, "--check-tap", "7", "--check-tap", "AC", "--check-tap", "backspace"], program: Self.app)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty && outcome.stdout.isEmpty)
    }

    /// `±` is a key of the landscape layout only: the launch orientation's keys are the ones.
    @Test(arguments: ["Q", "±"])
    func aKeyTheLaunchLayoutLacksIsRefusedNamingTheThemeAndItsKeys(key: String) throws {
        let outcome = try CLI.run(["--manifest", Self.manifest, "--check-tap", "7", "--check-tap", key], program: Self.app)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("--tap '\(key)': \(Self.theme) has no such key (keys: "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(" 7 ") && outcome.stderr.contains("backspace"), "\(outcome.stderr)")
    }

    @Test func runShowsTheAppsRefusalBeforeAnyRun() throws {
        let outcome = try CLI.run(["run", "--manifest", Self.manifest, "--runs", "1", "--warmup", "0", "--tap", "0.1:±"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--tap '±': \(Self.theme) has no such key (keys: "), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("Time for"), "\(outcome.stdout)")
    }

    @Test func aManifestTheAppCannotReadIsTheManifestsError() throws {
        let outcome = try CLI.run(["--manifest", "/nonexistent/m.json", "--check-tap", "7"], program: Self.app)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("/nonexistent/m.json"), "\(outcome.stderr)")
    }
}
