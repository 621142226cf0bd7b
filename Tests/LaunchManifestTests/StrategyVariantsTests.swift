import Testing
import LaunchCore
@testable import LaunchManifest

/// `launchprof compare`'s manifests: the strategy off and on, what it needs on, what needs it off,
/// every path absolute; both load.
@Suite struct StrategyVariantsTests {
    func variants(_ strategy: String) throws -> (off: Manifest, on: Manifest) {
        let bytes = try FileIO.read(Paths.defaultManifest)
        let directory = Paths.packageRoot + "/Fixtures/default"
        let v = try StrategyVariants(strategy: strategy, manifest: bytes, path: Paths.defaultManifest, directory: directory)
        return (try ManifestLoader.parse(v.off, path: "/elsewhere/off.json"), try ManifestLoader.parse(v.on, path: "/elsewhere/on.json"))
    }

    @Test func everyStrategyOfTheCatalogSwitchesBothWaysAndLoads() throws {
        for entry in StrategyCatalog.entries {
            let (off, on) = try variants(entry.key)
            #expect(off.theme == Paths.defaultTheme, "\(entry.key): paths stay the fixture's")
            #expect(on.theme == Paths.defaultTheme)
            switch entry.key {
            case "reuseKeyBackgrounds": #expect(!off.strategies.reuseKeyBackgrounds && on.strategies.reuseKeyBackgrounds)
            case "snapshotFirst": #expect(!off.strategies.snapshotFirst && on.strategies.snapshotFirst)
            case "queueInputDuringLaunch": #expect(!off.strategies.queueInputDuringLaunch && on.strategies.queueInputDuringLaunch)
            case "loadingDialog": #expect(off.strategies.loadingDialog == nil && on.strategies.loadingDialog != nil)
            case "releaseCachesOnBackground": #expect(!off.strategies.releaseCachesOnBackground && on.strategies.releaseCachesOnBackground)
            case "sendReportOnClose": #expect(off.strategies.sendReportOnClose == nil && on.strategies.sendReportOnClose == 2.0)
            case "coalescedLayout": #expect(!off.strategies.coalescedLayout && on.strategies.coalescedLayout)
            case "backgroundDecode": #expect(off.strategies.backgroundDecode == nil && on.strategies.backgroundDecode?.threads == 2)
            case "thumbnailsFirst":
                #expect(!off.strategies.thumbnailsFirst && on.strategies.thumbnailsFirst && on.strategies.backgroundDecode != nil)
            case "checkStaleDecodes":
                #expect(!off.strategies.checkStaleDecodes && on.strategies.checkStaleDecodes && on.strategies.backgroundDecode != nil)
            case "preload":
                #expect(off.strategies.preload == nil && on.strategies.preload == PreloadSpec(stage: "loading conversions", during: .launchAnimation))
            default: Issue.record("a strategy without a test: \(entry.key)")
            }
        }
    }

    @Test func offTurnsOffWhatNeedsItAndOnKeepsTheManifestsOwnSettings() throws {
        let (off, on) = try variants("snapshotFirst")
        #expect(off.strategies.loadingDialog == nil)  // The dialog needs snapshotFirst.
        #expect(on.strategies.loadingDialog?.showAfter == 1.0)
        #expect(StrategyCatalog.dependents(of: "snapshotFirst") == ["loadingDialog"])
        #expect(StrategyCatalog.dependents(of: "backgroundDecode") == ["thumbnailsFirst", "checkStaleDecodes"])
        // Off, backgroundDecode takes its two switches off with it, so the manifest still loads.
        let (decodeOff, _) = try variants("backgroundDecode")
        #expect(decodeOff.strategies.backgroundDecode == nil && !decodeOff.strategies.thumbnailsFirst)
    }

    /// `launchprof compare` writes the variants to a temporary directory: a settings stage that names
    /// no file must still read the settings.json beside the user's manifest, or both sides apply none.
    @Test func aSettingsStageWithoutAFileKeepsReadingTheUsersSettings() throws {
        let manifest =
            #"{"theme": "theme.xml", "screen": {"width": 320, "height": 480}, "stages": [{"name": "Init", "run": "init"}, {"name": "t", "run": "theme"}, {"name": "l", "run": "layout"}, {"name": "i", "run": "images"}, {"name": "s", "run": "settings"}], "strategies": {"coalescedLayout": true}}"#
        let v = try StrategyVariants(strategy: "coalescedLayout", manifest: Array(manifest.utf8), path: "/home/u/app/m.json", directory: "/home/u/app")
        for bytes in [v.off, v.on] {
            let variant = try ManifestLoader.parse(bytes, path: "/tmp/elsewhere/variant.json")
            #expect(variant.stages.first { $0.run == .settings }?.file == "/home/u/app/settings.json")
        }
    }

    @Test func unknownStrategiesAndNonObjectsAreRefused() {
        #expect(throws: ManifestError.self) { try StrategyVariants(strategy: "warpDrive", manifest: Array("{}".utf8), path: "m.json", directory: "/") }
        #expect(throws: ManifestError.input(file: "m.json", keyPath: nil, problem: .notAnObject)) {
            try StrategyVariants(strategy: "snapshotFirst", manifest: Array("[1]".utf8), path: "m.json", directory: "/")
        }
        #expect(StrategyVariants.listed(in: Array(#"{"strategies": {"snapshotFirst": true, "bogus": 1}}"#.utf8)) == ["snapshotFirst"])
    }

    @Test func theLoaderAcceptsExactlyTheCatalogsKeys() throws {
        #expect(throws: ManifestError.self) {
            try ManifestLoader.parse(
                Array(#"{"theme": "t.xml", "screen": {"width": 10, "height": 10}, "stages": [], "strategies": {"warpDrive": true}}"#.utf8), path: "/x/m.json")
        }
    }
}
