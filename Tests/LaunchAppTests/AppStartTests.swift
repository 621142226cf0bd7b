import LaunchCore
import LaunchprofTestSupport
import Testing

@testable import LaunchApp

/// What the app does at its start, from its arguments and environment: launch, answer `--check-tap`,
/// or refuse (exit 2 with the message) — decided without spawning it.
@Suite struct AppStartTests {
    static let manifest = BuiltProducts.source("Fixtures/default/manifest.json")
    static let theme = BuiltProducts.source("Fixtures/default/theme.xml")
    static let valgrind = ValgrindPresence(isCompiled: true, isRunning: false)

    static func decide(_ arguments: [String], _ environment: AppEnvironment = AppEnvironment()) -> AppStart {
        AppStart.decide(arguments: arguments, environment: environment, valgrind: valgrind)
    }

    @Test func aLaunchHasItsOptionsAndMeasurement() throws {
        let start = Self.decide(["--manifest", Self.manifest, "--seed", "9"], AppEnvironment(counters: "0", emulation: "cpu=2"))
        var options = BuiltInApp.Options()
        options.manifest = Self.manifest
        options.seed = 9
        let measurement = AppMeasurement(recording: .wallClock(counters: false), emulation: DeviceEmulation(factors: [.cpu: 2]))
        #expect(start == .launch(options, measurement))
    }

    @Test func keysOfTheLaunchLayoutThatTheCalculatorKnowsExitZeroSilently() {
        let start = Self.decide(["--manifest", Self.manifest, "--check-tap", "7", "--check-tap", "AC", "--check-tap", "backspace"])
        #expect(start == .exit(status: 0, message: nil))
    }

    /// `±` is a key of the landscape layout only; `Q` is no key at all.
    @Test(arguments: ["Q", "±"])
    func aKeyTheLaunchLayoutLacksIsRefusedNamingTheThemeAndItsKeys(key: String) throws {
        let start = Self.decide(["--manifest", Self.manifest, "--check-tap", "7", "--check-tap", key])
        guard case .exit(let status, let message?) = start else {
            Issue.record("not a refusal: \(start)")
            return
        }
        #expect(status == 2)
        #expect(message.hasPrefix("--tap '\(key)': \(Self.theme) has no such key (keys: "), "\(message)")
        #expect(message.contains(" 7 ") && message.contains("backspace"), "\(message)")
    }

    @Test func anUnreadableManifestIsTheManifestsErrorNamingIt() throws {
        let start = Self.decide(["--manifest", "/nonexistent/m.json", "--check-tap", "7"])
        guard case .exit(let status, let message?) = start else {
            Issue.record("not a refusal: \(start)")
            return
        }
        #expect(status == 2)
        #expect(message.contains("/nonexistent/m.json"), "\(message)")
    }

    /// `--check-tap` answers before the environment is read: a malformed emulation does not matter to it.
    @Test func checkingKeysIgnoresTheEnvironment() {
        let start = AppStart.decide(
            arguments: ["--manifest", Self.manifest, "--check-tap", "7"],
            environment: AppEnvironment(metric: "instructions", emulation: "cpu=0.5"), valgrind: ValgrindPresence(isCompiled: false, isRunning: false))
        #expect(start == .exit(status: 0, message: nil))
    }

    @Test func aBadArgumentIsRefusedBeforeAnyKeyIsChecked() {
        let start = Self.decide(["--check-tap", "Q", "--manifest", "/nonexistent/m.json", "--verbose"])
        #expect(start == .exit(status: 2, message: "unknown app argument '--verbose'"))
    }

    @Test func aBadEnvironmentIsRefusedWithExitTwo() {
        let start = Self.decide(["--manifest", Self.manifest], AppEnvironment(emulation: "cpu=fast"))
        #expect(start == .exit(status: AppStart.refusedStatus, message: "malformed LAUNCHPROF_EMULATION 'cpu=fast'"))
        #expect(AppStart.refusedStatus == 2)
    }

    /// A launch reads no file before its greeting: a missing manifest is the pipeline's error, in its
    /// "reading manifest" phase, not a refusal at the start.
    @Test func aLaunchDoesNotReadTheManifestAtItsStart() {
        let start = Self.decide(["--manifest", "/nonexistent/m.json"])
        guard case .launch(let options, _) = start else {
            Issue.record("refused at the start: \(start)")
            return
        }
        #expect(options.manifest == "/nonexistent/m.json")
    }
}
