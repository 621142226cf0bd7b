import LaunchCore

/// A launch configuration: which theme and assets, the screen, the orientations to build,
/// the stages in order (with the names the report prints), lazy stages, strategies and the snapshot.
/// The format is documented in `docs/manifest.md`; ``ManifestLoader`` reads it.
public struct Manifest: Equatable, Sendable {
    /// The file the manifest was read from.
    public var path: String
    /// SHA-256 of the file's bytes.
    public var sha256: String
    public var name: String
    /// Theme XML path (resolved against the manifest's directory).
    public var theme: String
    /// Asset directory (resolved).
    public var assets: String
    public var screen: Screen
    /// Orientations to build; the first is the one drawn at launch.
    public var orientations: [Orientation]
    public var stages: [StageSpec]
    public var strategies: Strategies
    /// Where the snapshot PNG is written when the app enters the background, and read back at the
    /// next launch with `snapshotFirst` (resolved), or `nil` for no file.
    public var snapshot: String?
    /// The splash image shown first when there is no usable snapshot (an asset, resolved).
    public var splash: String?
    /// Test only: a precise slowdown injected into one stage, to measure what `check` detects.
    public var injectedSlowdown: InjectedSlowdown?
    /// Test only: work added to one named drawing function (`test.slowFunction`), to check that
    /// `--functions` names it.
    public var injectedFunctionWork: InjectedFunctionWork? = nil

    /// The stages that run at launch, in order.
    public var launchStages: [StageSpec] { stages.filter { !$0.lazy } }

    /// The lazy stages, which run only when touched.
    public var lazyStages: [StageSpec] { stages.filter(\.lazy) }

    /// The marks every launch of this manifest sends: `first frame` when a draw stage runs at
    /// launch, and always `interactive`.
    public var promisedMarks: [String] {
        (launchStages.contains { $0.run == .draw } ? [AppInterface.firstFrameMark] : []) + [AppInterface.interactiveMark]
    }
}

extension Manifest {
    /// The asset file `file` names, preferring the `@Nx` file for the screen's scale, and its scale.
    public func resolveAsset(_ file: String) -> (path: String, scale: Int) {
        let scale = screen.scale
        if scale > 1, file.hasSuffix(".png"), !file.contains("@") {
            let variant = FileIO.resolve("\(file.dropLast(4))@\(scale)x.png", relativeTo: assets)
            if FileIO.exists(variant) { return (variant, scale) }
        }
        let path = FileIO.resolve(file, relativeTo: assets)
        if let at = file.lastIndex(of: "@"), let n = Int(file[file.index(after: at)...].prefix { $0.isNumber }) {
            return (path, n)
        }
        return (path, 1)
    }
}

/// Screen size in points and the pixel scale (1 for @1x, 2 for @2x…), in portrait.
public struct Screen: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var scale: Int
}

/// One stage of the startup pipeline.
public struct StageSpec: Equatable, Sendable {
    /// The phase name the report prints (`Time for <name>`).
    public var name: String
    /// What the stage does.
    public var run: StageKind
    /// A lazy stage does not run at launch; the report shows it as deferred.
    public var lazy: Bool
    /// The data file of a `data` stage (resolved).
    public var file: String?
}

/// Test only: makes the draw stage `stage` do `fraction` more (0.05 = 5%), as `measure` says
/// (docs/manifest.md, "Test only: injected slowdown").
public struct InjectedSlowdown: Equatable, Sendable {
    /// What the fraction is a fraction of (`test.slowdown.of`).
    public enum Measure: String, Equatable, Sendable, CaseIterable {
        /// The drawing's rows: every drawing loop runs `fraction` of its rows again. Instructions grow
        /// by about the fraction; time by less (the repeats find warm caches).
        case rows
        /// The drawing's CPU time: each drawing phase computes inside itself, after its own work, until
        /// the thread's CPU time has grown by `fraction` of what the work took.
        case cpuTime
    }

    public var stage: String
    public var fraction: Double
    public var measure: Measure
}

/// Optimisation strategies, each measurable by switching it on or off.
public struct Strategies: Equatable, Sendable {
    /// Draw a key background once per size and style and reuse it for every such key.
    public var reuseKeyBackgrounds = true
    /// Present the snapshot saved when the app last went to the background (or the splash image)
    /// before any real initialisation: first frame early, interactive when the real UI is drawn.
    public var snapshotFirst = false
    /// Free the decoded images and the framebuffer when entering the background (less memory while
    /// suspended, a slower return).
    public var releaseCachesOnBackground = false
    /// Keep taps made before the app is interactive and apply them once it is; off, they are lost.
    public var queueInputDuringLaunch = true
    /// The loading dialog over the first frame while a long init runs, or `nil` for none.
    public var loadingDialog: LoadingDialogSpec?
    /// Seconds the background step spends sending an analytics report, holding the state lock; `nil` for none.
    public var sendReportOnClose: Double?
    /// Settings applied at launch store their values and lay the views out once, at the end
    /// (`setNeedsUpdate`), instead of once per setter (`layoutIfNeeded`).
    public var coalescedLayout = false
    /// PNG assets are decoded on worker threads while the main thread draws placeholders; `nil`: on the main thread.
    public var backgroundDecode: BackgroundDecodeSpec?
    /// With `backgroundDecode`: the window's image, when it has a `name@thumb.png`, is decoded on the main
    /// thread first and drawn at once, then replaced by the full image.
    public var thumbnailsFirst = false
    /// With `backgroundDecode`: a worker checks the view's current image path before and after decoding
    /// and discards an image the view no longer shows (the reuse race); off, it is drawn anyway.
    public var checkStaleDecodes = true
    /// A lazy data stage prepared on a worker thread under the launch animation; `nil` for none (``PreloadSpec``).
    public var preload: PreloadSpec?
}

/// `strategies.backgroundDecode`: how many worker threads decode the PNG assets.
public struct BackgroundDecodeSpec: Equatable, Sendable {
    /// Worker threads, 1 to 8.
    public var threads: Int

    public init(threads: Int = 2) {
        self.threads = threads
    }
}

/// `strategies.loadingDialog`: shown when init is still running `showAfter` seconds after the first
/// frame, its message kept at least `minMessageSeconds` (so that it can be read).
public struct LoadingDialogSpec: Equatable, Sendable {
    /// Seconds after the first frame, 0 to 60.
    public var showAfter: Double
    /// Seconds a shown message stays at least, 0 to 60.
    public var minMessageSeconds: Double

    public init(showAfter: Double = 1.0, minMessageSeconds: Double = 1.5) {
        self.showAfter = showAfter
        self.minMessageSeconds = minMessageSeconds
    }
}

/// Test only (`test.slowFunction`): every call of the drawing function `function` (one of
/// ``functions``) runs `iterations` steps of a 64-bit linear congruential generator in its own code,
/// about 4 instructions each, so its self count grows and nothing else's (docs/manifest.md).
public struct InjectedFunctionWork: Equatable, Sendable {
    /// The drawing functions the work can be added to.
    public static let functions = ["fillRoundedRect"]
    /// The most iterations a call may add.
    public static let maximumIterations = 10_000_000
    public var function: String
    public var iterations: Int

    public init(function: String, iterations: Int) {
        self.function = function
        self.iterations = iterations
    }
}
