import LaunchCore
import LaunchImage
import LaunchManifest

/// The app-like startup workload: runs a ``Manifest``'s stages in order, each as a named phase
/// on a ``PhaseRecorder``, and keeps what each stage produced.
///
/// ```swift
/// let clock = LaunchClock.startNow()
/// let recorder = PhaseRecorder(clock: clock)
/// let pipeline = Pipeline(manifest: try ManifestLoader.load(path: "Fixtures/default/manifest.json"), recorder: recorder)
/// try pipeline.launch()
/// try pipeline.touch("loading conversions")   // a lazy stage, on first use
/// ```
public final class Pipeline {
    public let manifest: Manifest
    public let recorder: PhaseRecorder
    /// Where the snapshot goes; the manifest's `snapshot` unless overridden (`nil`: encode but write no file).
    public var snapshotPath: String?
    public var decoder = PNGDecoder()
    /// Called with each stage's name as it starts (for progress displays).
    public var onStageStart: ((String) -> Void)?

    public private(set) var theme: Theme?
    /// The calculator behind the display: taps change it (``press(_:)``).
    public private(set) var calculator = Calculator()
    public private(set) var layouts: [Orientation: BuiltLayout] = [:]
    public internal(set) var canvas: Canvas?
    public internal(set) var imageCache = ImageCache()
    public internal(set) var fonts: [String: GlyphFont] = [:]
    public internal(set) var images: [String: LoadedImage] = [:]
    public internal(set) var dataTables: [String: DataTable] = [:]
    /// The preload's worker and the panels of the lazy stages used (`Pipeline+Preload.swift`).
    let preloadState = PreloadState()
    /// The encoded snapshot PNG, once the app entered the background.
    public internal(set) var snapshotBytes: [UInt8]?
    /// What the first frame showed with `snapshotFirst`, once presented.
    public internal(set) var firstFrame: FirstFrame?
    /// The clock reading at which the app entered the background, once it did.
    public internal(set) var backgroundReading: UInt64?
    /// The recorders of the decode worker threads (`backgroundDecode`), once the images stage started them.
    public internal(set) var workerRecorders: [PhaseRecorder] = []
    /// Test only: the window is given another image while its own is decoding on a worker, and that
    /// decode is handed back last (the reuse race, made deterministic).
    public var forceDecodeRace = false
    /// What `backgroundDecode` keeps while the launch runs, and what the window shows (`BackgroundDecode.swift`).
    var decode = DecodeState()
    private var ran: Set<StageKind> = []
    private var touched: Set<String> = []

    public init(manifest: Manifest, recorder: PhaseRecorder) {
        self.manifest = manifest
        self.recorder = recorder
        self.snapshotPath = manifest.snapshot
    }

    /// Runs every stage that is not lazy, in manifest order; then the app handles input: the
    /// `interactive` mark.
    public func launch() throws {
        var dialog: LoadingDialogThread?
        if manifest.strategies.snapshotFirst {
            let (frame, reading) = try presentSavedFrame()
            // Under Callgrind the dialog is off: it depends on time, which would make the counts vary.
            if let spec = manifest.strategies.loadingDialog, !recorder.countsInstructions {
                let thread = LoadingDialogThread(spec: spec, manifest: manifest, frame: frame, firstFrameReading: reading, seed: dialogSeed)
                if thread.start() { dialog = thread }
            }
        }
        defer { if let dialog { report(dialog.finish()) } }
        defer { stopDecodeWorkers() }
        for stage in manifest.launchStages {
            onStageStart?(stage.name)
            (rowRepeater, cpuTimeSlowdown) = try slowdown(for: stage)
            defer { (rowRepeater, cpuTimeSlowdown) = (nil, nil) }
            try recorder.phase(stage.name, kind: stage.run.cost) {
                // The stage's own work, all of what its phase times between its children, grows by the
                // slowdown's fraction: a tier stretches all of it as the stage's self time.
                cpuTimeSlowdown?.beginStage()
                defer { cpuTimeSlowdown?.endStage() }
                try run(stage)
            }
            countSlowdown()
        }
        // Init is done: the dialog, if it is up, goes once its message has been readable long enough.
        if let thread = dialog {
            dialog = nil
            report(thread.finish())
        }
        try playLaunchAnimationAndPreload()
        // Nothing in the calculator reads a data table before it is interactive: an eager data stage
        // was loaded for nothing yet (`Why it is slow`: make it lazy).
        for stage in manifest.launchStages where stage.run == .data && stage.file != nil {
            recorder.count(AppInterface.unusedAtLaunchCounterPrefix + stage.name, 1)
        }
        recorder.mark(AppInterface.interactiveMark)
        // The main run loop's next turns: images decoded on workers are handed back and drawn.
        try showDecodedImages()
    }

    /// Seeds the loading dialog's choice of message (`--seed`); the clock when not set.
    public var dialogSeed: UInt64 = MonotonicClock.nanoseconds() | 1

    /// Counts what the loading dialog did.
    private func report(_ outcome: LoadingDialogThread.Outcome) {
        recorder.count("loading dialog shown", outcome.shown ? 1 : 0)
        guard outcome.shown else { return }
        recorder.count("loading dialog milliseconds", Int(outcome.shownNanoseconds / 1_000_000))
        recorder.count("spinner frames drawn", outcome.frames)
        recorder.count("longest spinner gap milliseconds", Int(outcome.longestGapNanoseconds / 1_000_000))
    }

    /// Runs the lazy stage named `name` after launch, as a first use would; its phase is marked after-launch.
    public func touch(_ name: String) throws {
        guard let stage = manifest.lazyStages.first(where: { $0.name == name }) else {
            throw PipelineError.stage(.unknownLazyStage(name: name, manifest: manifest.path, lazyStages: manifest.lazyStages.map(\.name)))
        }
        guard touched.insert(name).inserted else { return }
        recorder.recordingAfterLaunch = true
        defer { recorder.recordingAfterLaunch = false }
        try recorder.phase(stage.name, kind: stage.run.cost) { try firstUse(stage) }
    }

    // MARK: Stages

    func run(_ stage: StageSpec) throws {
        switch stage.run {
        case .initialize: runInit()
        case .theme: try runTheme()
        case .layout: try runLayout()
        case .images: try runImages()
        case .draw: try runDraw()
        case .data: try runData(stage)
        case .settings: try runSettings(stage)
        }
        ran.insert(stage.run)
    }

    func runInit() {
        let s = manifest.screen
        canvas = Canvas(width: s.width * s.scale, height: s.height * s.scale, fill: RGBA(0, 0, 0))
        imageCache = ImageCache()
    }

    private func runTheme() throws {
        theme = try ThemeParser.load(path: manifest.theme)
        calculator = Calculator(display: theme?.display.text ?? "0")
    }

    private func runLayout() throws {
        let theme = try require(theme, "layout")
        for orientation in manifest.orientations {
            guard let spec = theme.layouts[orientation] else {
                throw PipelineError.stage(.orientationWithoutLayout(theme: manifest.theme, manifest: manifest.path, orientation: orientation))
            }
            let built = try recorder.phase(orientation.rawValue, kind: .cpu) { () throws(PipelineError) -> BuiltLayout in
                do throws(PipelineError) {
                    return try LayoutEngine.build(spec, portraitWidth: Double(manifest.screen.width), portraitHeight: Double(manifest.screen.height))
                } catch {
                    guard case .layout(_, let reason) = error else { throw error }
                    let s = manifest.screen
                    throw .stage(
                        .layoutDoesNotFit(
                            theme: manifest.theme, line: spec.sourceLine, column: spec.sourceColumn, orientation: orientation, width: s.width,
                            height: s.height, manifest: manifest.path, reason: reason))
                }
            }
            layouts[orientation] = built
            recorder.count("keys laid out", built.keys.count)
            recorder.count("views laid out", built.viewCount)
        }
    }

    func runImages() throws {
        if let spec = manifest.strategies.backgroundDecode, try startBackgroundDecode(spec) { return }
        try loadAssets()
        recorder.count("images decoded", imageCache.misses)
        recorder.count("image cache hits", imageCache.hits)
        recorder.count("decoded image bytes", imageCache.byteCount)
    }

    /// Decodes every font atlas and image of the theme (through the cache), without counting.
    func loadAssets() throws {
        let theme = try require(theme, "images")
        // Sorted names make the decode order, and so the phases, the same on every run.
        try loadFonts(theme)
        for name in theme.images.keys.sorted() {
            let (image, scale, _) = try loadImage(theme.images[name]!.source)
            images[name] = LoadedImage(image: image, scale: scale)
        }
    }

    /// Decodes every font atlas of `theme` (through the cache).
    func loadFonts(_ theme: Theme) throws {
        for name in theme.fonts.keys.sorted() {
            let spec = theme.fonts[name]!
            let (image, _, path) = try loadImage(spec.atlas)
            fonts[name] = try GlyphFont(spec: spec, atlas: image, file: path)
        }
    }

    /// Loads an asset through the cache, preferring the `@Nx` file for the screen's scale.
    func loadImage(_ file: String) throws -> (RGBAImage, Int, String) {
        let (path, scale) = resolveAsset(file)
        let image = try imageCache.image(for: path) { path in
            try recorder.phase("decoding \(Self.fileName(path))", kind: .decode) {
                try decoder.decode(try FileIO.read(path, limit: .asset), file: path)
            }
        }
        return (image, scale, path)
    }

    func resolveAsset(_ file: String) -> (path: String, scale: Int) {
        manifest.resolveAsset(file)
    }

    func runDraw() throws {
        let theme = try require(theme, "draw")
        guard var canvas, let launchOrientation = manifest.orientations.first, let layout = layouts[launchOrientation] else {
            throw PipelineError.stage(.stagesMissing(step: "draw stage", needs: ["init", "layout"]))
        }
        try awaitFonts()
        var renderer = makeRenderer(theme)
        canvas.rowRepeater = rowRepeater
        canvas.injectedWork = manifest.injectedFunctionWork
        renderer.rowRepeater = rowRepeater
        defer {
            self.canvas?.rowRepeater = nil
            self.canvas?.injectedWork = nil
        }
        slowedPhase("background") { renderer.drawWindow(on: &canvas) }
        try slowedPhase("display") { try renderer.drawDisplay(layout, on: &canvas) }
        try slowedPhase("keys") { try renderer.drawKeys(layout, on: &canvas) }
        if firstFrame == nil { recorder.mark(AppInterface.firstFrameMark) }
        recorder.count("pixels drawn", canvas.pixelsDrawn)
        recorder.count("key backgrounds drawn", renderer.backgroundsDrawn)
        recorder.count("key backgrounds reused", renderer.backgroundsReused)
        self.canvas = canvas
    }

    /// A drawing phase, its work made `test.slowdown`'s fraction longer in CPU time when it is of `cpuTime`.
    private func slowedPhase<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
        guard let slowdown = cpuTimeSlowdown else { return try recorder.phase(name, kind: .draw, work) }
        return try slowdown.phase { try recorder.phase(name, kind: .draw) { try slowdown.timed(work) } }
    }

    /// What `test.slowdown` did to the drawing, as counters: the rows it repeated, or the CPU time of
    /// the drawing's work (its phases' and its own) and the CPU time it added (so a benchmark can print the change's real size).
    private func countSlowdown() {
        if let rowRepeater { recorder.count("test slowdown rows repeated", rowRepeater.repeated) }
        if let cpuTimeSlowdown {
            recorder.count("test slowdown work nanoseconds", Int(clamping: cpuTimeSlowdown.workNanoseconds))
            recorder.count("test slowdown added nanoseconds", Int(clamping: cpuTimeSlowdown.addedNanoseconds))
        }
    }

    /// Test only (`test.slowdown`): makes the stage do `fraction` more, of its rows or of its CPU time.
    ///
    /// Of rows (the default), its drawing runs through a ``RowRepeater``: every drawing loop (shapes,
    /// images, glyphs, key tiles, their shadows' masks and blur) runs an evenly spread `fraction` of its
    /// rows once more, so its instruction count grows by about that fraction and its time by less (the
    /// repeats find warm caches). What does not depend on the rows (each call's set-up, the canvas) is
    /// not repeated: measured with Callgrind, the drawing grows by 0.99–1.02 × `fraction` on the default
    /// fixture and 1.07–1.09 × on the heavy one (docs/manifest.md). Of `cpuTime`, each drawing phase
    /// computes after its work until its CPU time has grown by `fraction` (``CPUTimeSlowdown``): what a
    /// time gate, and a device tier, measure. Fraction 0 draws the same frame as without the key.
    private func slowdown(for stage: StageSpec) throws -> (RowRepeater?, CPUTimeSlowdown?) {
        guard let slowdown = manifest.injectedSlowdown, slowdown.stage == stage.name else { return (nil, nil) }
        guard stage.run == .draw else {
            throw PipelineError.stage(.slowdownNotDrawing(manifest: manifest.path, stage: stage.name))
        }
        switch slowdown.measure {
        case .rows: return (RowRepeater(fraction: slowdown.fraction), nil)
        case .cpuTime: return (nil, CPUTimeSlowdown(fraction: slowdown.fraction))
        }
    }

    /// The drawing stage's ``RowRepeater`` while it runs (`test.slowdown` of rows).
    private var rowRepeater: RowRepeater?
    /// The drawing stage's ``CPUTimeSlowdown`` while it runs (`test.slowdown` of `cpuTime`).
    private var cpuTimeSlowdown: CPUTimeSlowdown?

    /// Applies the saved settings through the views' setters (`coalescedLayout`: one update at the
    /// run loop's turn); a first launch without a settings file applies none.
    private func runSettings(_ stage: StageSpec) throws {
        let theme = try require(theme, "settings")
        guard let path = stage.file else { return }
        try awaitFonts()
        let settings = try recorder.phase("reading \(Self.fileName(path))", kind: .io) { try Settings.load(path: path, theme: theme) }
        let views = CalculatorViews(
            theme: theme, layouts: layouts, screen: manifest.screen, font: fonts["label"] ?? fonts.values.first,
            coalesced: manifest.strategies.coalescedLayout)
        let changes = settings?.changes ?? []
        for change in changes { try views.set(change) }
        try views.runLoopTurn()
        if !changes.isEmpty { layouts = views.layouts }
        savedSettings = views.settings
        recorder.count("settings applied", changes.count)
        recorder.count("layout passes", views.layoutPasses)
        recorder.count("orientations laid out", layouts.count)
        if manifest.strategies.coalescedLayout { recorder.count("layout updates cancelled", views.updatesCancelled) }
    }

    /// The settings the views show, once the settings stage ran: saved by the background step.
    public internal(set) var savedSettings: Settings?

    private func runData(_ stage: StageSpec) throws {
        guard let file = stage.file else { return }
        let table = try DataTable.load(path: file)
        dataTables[stage.name] = table
        recorder.count("data items loaded", table.items.count)
    }

    /// Applies a key press to the calculator and redraws the display on the framebuffer: the frame
    /// that shows the tap's effect. Returns the clock reading when that frame is done.
    public func press(_ key: Calculator.Key) throws -> UInt64 {
        try recorder.phase(AppInterface.handlingTapPhase, kind: .draw) {
            calculator.press(key)
            if let theme, var canvas, let orientation = manifest.orientations.first, let layout = layouts[orientation] {
                let renderer = makeRenderer(theme)
                try renderer.drawDisplay(layout, on: &canvas)
                self.canvas = canvas
            }
        }
        return MonotonicClock.nanoseconds()
    }

    /// Frees the decoded images, fonts, cache and framebuffer (`releaseCachesOnBackground`).
    func releaseCaches() {
        recorder.count("decoded image bytes released", imageCache.byteCount)
        images = [:]
        fonts = [:]
        imageCache = ImageCache()
        decode.overridesWindow = false
        decode.windowImage = nil
        canvas = nil
    }

    /// A renderer of the app's views as they are now: the loaded images, the window's own image and
    /// the calculator's display; at the screen's scale unless `scale` is given.
    func makeRenderer(_ theme: Theme) -> UIRenderer {
        var renderer = UIRenderer(
            theme: theme, fonts: fonts, images: images, scale: Double(manifest.screen.scale),
            reuseKeyBackgrounds: manifest.strategies.reuseKeyBackgrounds)
        if decode.overridesWindow { renderer.windowTexture = decode.windowImage }
        renderer.displayText = calculator.display
        return renderer
    }

    func require<T>(_ value: T?, _ stage: String) throws -> T {
        guard let value else { throw PipelineError.stage(.stagesMissing(step: "\(stage) stage", needs: ["theme"])) }
        return value
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
